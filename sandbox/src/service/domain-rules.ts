import type { DomainTypeCode, Product } from "../catalogue/types.js";
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

/** Spec 2.3, per domain type: what the main name may be and which extra lists may be sent. */
const RULES: Record<DomainTypeCode, { main: NameKind[]; mainText: string; san: boolean; wildcards: boolean }> = {
  single: { main: ["fqdn"], mainText: "exactly one plain single domain (no wildcard, no IP address)", san: false, wildcards: false },
  wildcard: { main: ["wildcard"], mainText: "a wildcard of the form *.<domain>", san: false, wildcards: false },
  "multiple-single": { main: ["fqdn"], mainText: "a plain single domain (wildcards are not supported)", san: true, wildcards: false },
  "multiple-wildcard": { main: ["wildcard"], mainText: "a wildcard of the form *.<domain>", san: false, wildcards: true },
  "multiple-mix": { main: ["fqdn", "wildcard"], mainText: "a plain domain or a wildcard", san: true, wildcards: true },
  ipv4: { main: ["ipv4"], mainText: "an IPv4 address", san: false, wildcards: false },
  ipv6: { main: ["ipv6"], mainText: "an IPv6 address", san: false, wildcards: false },
};

const KIND_TEXT: Record<NameKind, string> = { fqdn: "a plain domain", wildcard: "a wildcard", ipv4: "an IPv4 address", ipv6: "an IPv6 address" };

/**
 * Reads `domain` (alias `main_domain`), `san_domains` and `wildcard_domains`
 * (alias `wc_domains`) and applies the product's domain-type rules (spec 2.3)
 * and its name counts, naming the field at fault.
 */
export function readNames(body: Body, product: Product): Names {
  const mainRaw = optionalString(body, "domain", "main_domain");
  if (mainRaw === undefined || mainRaw === "") throw badRequest("domain", "domain is required");
  const main = classifyName(mainRaw);
  if ("error" in main) throw badRequest("domain", `domain ${JSON.stringify(mainRaw)} ${main.error}`);
  const sanList = stringList(body, "san_domains");
  const wcList = stringList(body, "wildcard_domains", "wc_domains");

  const type = product.domainType;
  const rule = RULES[type];
  const label = `product ${product.code} (domain type ${type})`;
  if (!rule.main.includes(main.kind)) {
    throw badRequest("domain", `domain must be ${rule.mainText} for ${label}; ${main.name} is ${KIND_TEXT[main.kind]}`);
  }
  if (!rule.san && sanList.values.length > 0) throw badRequest(sanList.name, `${sanList.name} must not be sent for ${label}`);
  if (!rule.wildcards && wcList.values.length > 0) {
    const why = type === "multiple-single" ? "wildcards are not supported" : "no extra domains";
    throw badRequest(wcList.name, `${wcList.name} must not be sent for ${label}: ${why}`);
  }

  const seen = new Map<string, string>([[main.name, "domain"]]);
  const claim = (name: string, field: string): void => {
    const first = seen.get(name);
    if (first !== undefined) throw badRequest(field, `${field}: ${name} appears more than once (already in ${first}); each name may be ordered once`);
    seen.set(name, field);
  };
  const san = sanList.values.map((raw) => {
    const n = classifyName(raw);
    if ("error" in n) throw badRequest(sanList.name, `${sanList.name}: ${JSON.stringify(raw)} ${n.error}`);
    if (n.kind === "wildcard") {
      const where = rule.wildcards ? "wildcards belong in wildcard_domains" : `${label} does not support wildcards`;
      throw badRequest(sanList.name, `${sanList.name}: ${n.name} is a wildcard; ${where}`);
    }
    if (n.kind !== "fqdn") throw badRequest(sanList.name, `${sanList.name}: ${n.name} is ${KIND_TEXT[n.kind]}; san_domains takes plain single domains`);
    claim(n.name, sanList.name);
    return n.name;
  });
  const wildcards = wcList.values.map((raw) => {
    const n = classifyName(raw);
    if ("error" in n) throw badRequest(wcList.name, `${wcList.name}: ${JSON.stringify(raw)} ${n.error}`);
    if (n.kind !== "wildcard") throw badRequest(wcList.name, `${wcList.name}: ${n.name} is not a wildcard (*.example.com); plain names belong in san_domains`);
    claim(n.name, wcList.name);
    return n.name;
  });

  const singles = san.length + (main.kind === "wildcard" ? 0 : 1);
  const wild = wildcards.length + (main.kind === "wildcard" ? 1 : 0);
  if (singles > product.maxSingleDomains) {
    throw badRequest(sanList.name, `${sanList.name}: ${singles} plain names in total exceed the maximum of ${product.maxSingleDomains} for ${label}`);
  }
  if (wild > product.maxWildcards) {
    throw badRequest(wcList.name, `${wcList.name}: ${wild} wildcards in total exceed the maximum of ${product.maxWildcards} for ${label}`);
  }
  return { main: main.name, mainKind: main.kind, san, wildcards };
}
