import type { Product } from "../catalogue/types.js";
import { badRequest } from "../errors.js";
import { optionalString, stringList, type Body } from "./fields.js";
import { classifyName, type NameKind } from "./names.js";

/** The ordered names, normalised: the main name's kind decides which counter it uses. */
export interface Names {
  main: string;
  mainKind: NameKind;
  san: string[];
  wildcards: string[];
}

/**
 * Reads `domain` (alias `main_domain`), `san_domains` and `wildcard_domains`
 * (alias `wc_domains`) and applies the product's domain-type rules and
 * counts (docs/wire-format.md), naming the field at fault.
 */
export function readNames(body: Body, product: Product): Names {
  const mainRaw = optionalString(body, "domain", "main_domain");
  if (mainRaw === undefined || mainRaw === "") throw badRequest("domain", "domain is required");
  const main = classifyName(mainRaw);
  if ("error" in main) throw badRequest("domain", `domain ${JSON.stringify(mainRaw)} ${main.error}`);
  const sanList = stringList(body, "san_domains");
  const wcList = stringList(body, "wildcard_domains", "wc_domains");

  const seen = new Map<string, string>([[main.name, "domain"]]);
  const claim = (name: string, field: string): void => {
    const first = seen.get(name);
    if (first !== undefined) throw badRequest(field, `${field}: ${name} appears more than once (already in ${first}); each name may be ordered once`);
    seen.set(name, field);
  };
  const san = sanList.values.map((raw) => {
    const n = classifyName(raw);
    if ("error" in n) throw badRequest(sanList.name, `${sanList.name}: ${JSON.stringify(raw)} ${n.error}`);
    if (n.kind === "wildcard") throw badRequest(sanList.name, `${sanList.name}: ${n.name} is a wildcard; wildcards belong in wildcard_domains`);
    claim(n.name, sanList.name);
    return { ...n };
  });
  const wildcards = wcList.values.map((raw) => {
    const n = classifyName(raw);
    if ("error" in n) throw badRequest(wcList.name, `${wcList.name}: ${JSON.stringify(raw)} ${n.error}`);
    if (n.kind !== "wildcard") throw badRequest(wcList.name, `${wcList.name}: ${n.name} is not a wildcard (*.example.com); plain names belong in san_domains`);
    claim(n.name, wcList.name);
    return n.name;
  });

  const type = product.domainType;
  const label = `product ${product.code} (domain type ${type})`;
  const requireMain = (kinds: NameKind[], what: string): void => {
    if (!kinds.includes(main.kind)) throw badRequest("domain", `domain must be ${what} for ${label}, got ${main.name}`);
  };
  const none = (list: unknown[], field: string): void => {
    if (list.length > 0) throw badRequest(field, `${field} must be empty for ${label}`);
  };
  const ipOnly = type === "ip" || type === "ip_multi";
  for (const s of san) {
    if (ipOnly && s.kind !== "ip") throw badRequest(sanList.name, `${sanList.name}: ${s.name} is not an IP address; ${label} takes IP addresses only`);
    if (!ipOnly && s.kind === "ip") throw badRequest(sanList.name, `${sanList.name}: ${s.name} is an IP address; ${label} takes domain names only`);
  }
  switch (type) {
    case "single":
      requireMain(["fqdn"], "one domain name (no wildcard, no IP)");
      none(san, sanList.name);
      none(wildcards, wcList.name);
      break;
    case "multi":
      requireMain(["fqdn"], "a domain name (no wildcard, no IP)");
      none(wildcards, wcList.name);
      break;
    case "wildcard":
      requireMain(["wildcard"], "one wildcard such as *.example.com");
      none(san, sanList.name);
      none(wildcards, wcList.name);
      break;
    case "multi_wildcard":
      requireMain(["wildcard"], "a wildcard such as *.example.com");
      none(san, sanList.name);
      break;
    case "flex":
      requireMain(["fqdn", "wildcard"], "a domain name or a wildcard");
      break;
    case "ip":
      requireMain(["ip"], "one public IP address");
      none(san, sanList.name);
      none(wildcards, wcList.name);
      break;
    case "ip_multi":
      requireMain(["ip"], "a public IP address");
      none(wildcards, wcList.name);
      break;
  }
  const singles = san.length + (main.kind === "wildcard" ? 0 : 1);
  const wild = wildcards.length + (main.kind === "wildcard" ? 1 : 0);
  if (singles > product.maxSingleDomains) {
    throw badRequest(sanList.name, `${sanList.name}: ${singles} domain names in total exceed the maximum of ${product.maxSingleDomains} for ${label}`);
  }
  if (wild > product.maxWildcards) {
    throw badRequest(wcList.name, `${wcList.name}: ${wild} wildcards in total exceed the maximum of ${product.maxWildcards} for ${label}`);
  }
  return { main: main.name, mainKind: main.kind, san: san.map((s) => s.name), wildcards };
}

