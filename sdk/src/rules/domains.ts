import type { DomainTypeCode, Product } from "../client/types.js";
import type { RuleFailure } from "./failure.js";
import { classifyName, type NameKind } from "./names.js";

/** The ordered names, classified; built by {@link checkNames}. */
export interface NameCounts {
  mainKind?: NameKind;
  /** FQDNs, main included. */
  fqdns: number;
  /** Wildcards, main included. */
  wildcards: number;
  /** IP addresses, main included. */
  ips: number;
}

/**
 * Product-independent name rules: every name well formed, wildcards only in
 * `domain`/`wildcardDomains`, no FQDN in `wildcardDomains`, each name once.
 */
export function checkNames(names: { domain: string; sanDomains: string[]; wildcardDomains: string[] }): {
  failures: RuleFailure[];
  counts: NameCounts;
} {
  const failures: RuleFailure[] = [];
  const counts: NameCounts = { fqdns: 0, wildcards: 0, ips: 0 };
  const seen = new Map<string, string>();
  const visit = (property: string, name: string, allowed: readonly NameKind[]): void => {
    const result = classifyName(name);
    if ("error" in result) {
      failures.push({ property, reason: `${JSON.stringify(name)} ${result.error}` });
      return;
    }
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      failures.push({ property, reason: `${JSON.stringify(name)} is already listed in ${earlier}; list each name once` });
      return;
    }
    seen.set(name, property);
    if (!allowed.includes(result.kind)) {
      failures.push({
        property,
        reason:
          result.kind === "wildcard"
            ? `${JSON.stringify(name)} is a wildcard; list wildcards in wildcardDomains (or as domain)`
            : `${JSON.stringify(name)} is not a wildcard; wildcardDomains takes only names of the form *.example.com`,
      });
      return;
    }
    if (property === "domain") counts.mainKind = result.kind;
    if (result.kind === "fqdn") counts.fqdns++;
    else if (result.kind === "wildcard") counts.wildcards++;
    else counts.ips++;
  };
  visit("domain", names.domain, ["fqdn", "wildcard", "ip"]);
  names.sanDomains.forEach((name) => visit("sanDomains", name, ["fqdn", "ip"]));
  names.wildcardDomains.forEach((name) => visit("wildcardDomains", name, ["wildcard"]));
  return { failures, counts };
}

const TYPE_WORDS: Record<DomainTypeCode, string> = {
  single: "a single-domain product (one FQDN, no sanDomains, no wildcardDomains)",
  multi: "a multi-domain product (FQDNs only: domain plus sanDomains)",
  wildcard: "a wildcard product (exactly one *.name as domain, nothing else)",
  multi_wildcard: "a multi-wildcard product (wildcards only: domain plus wildcardDomains)",
  flex: "a flex product (FQDNs and wildcards)",
  ip: "an IP product (exactly one public IP address as domain)",
  ip_multi: "a multi-IP product (public IP addresses only: domain plus sanDomains)",
};

/**
 * The product's domain-type rules (docs/wire-format.md, "Domain types") on
 * names that passed {@link checkNames}.
 */
export function checkDomainType(product: Product, names: { sanDomains: string[]; wildcardDomains: string[] }, counts: NameCounts): RuleFailure[] {
  const failures: RuleFailure[] = [];
  const type = product.domainTypeCode;
  const what = `${product.productCode} is ${TYPE_WORDS[type] ?? `of domain type ${type}`}`;
  const mainMustBe = (kind: NameKind, words: string) => {
    if (counts.mainKind !== undefined && counts.mainKind !== kind) failures.push({ property: "domain", reason: `${what}: domain must be ${words}` });
  };
  const none = (property: "sanDomains" | "wildcardDomains", list: string[]) => {
    if (list.length > 0) failures.push({ property, reason: `${what}: ${property} must be empty` });
  };
  const atMost = (property: string, count: number, max: number, noun: string) => {
    if (count > max) failures.push({ property, reason: `${what}: at most ${max} ${noun} in total (domain included), got ${count}` });
  };
  switch (type) {
    case "single":
      mainMustBe("fqdn", "a fully qualified domain name");
      none("sanDomains", names.sanDomains);
      none("wildcardDomains", names.wildcardDomains);
      break;
    case "multi":
      mainMustBe("fqdn", "a fully qualified domain name");
      if (counts.ips > 0) failures.push({ property: "sanDomains", reason: `${what}: IP addresses are not accepted` });
      none("wildcardDomains", names.wildcardDomains);
      atMost("sanDomains", counts.fqdns, product.maxSingleDomains, "domain names");
      break;
    case "wildcard":
      mainMustBe("wildcard", "a wildcard such as *.example.com");
      none("sanDomains", names.sanDomains);
      none("wildcardDomains", names.wildcardDomains);
      break;
    case "multi_wildcard":
      mainMustBe("wildcard", "a wildcard such as *.example.com");
      none("sanDomains", names.sanDomains);
      atMost("wildcardDomains", counts.wildcards, product.maxWildcards, "wildcards");
      break;
    case "flex":
      if (counts.mainKind === "ip") failures.push({ property: "domain", reason: `${what}: IP addresses are not accepted` });
      if (counts.ips > 0 && counts.mainKind !== "ip") failures.push({ property: "sanDomains", reason: `${what}: IP addresses are not accepted` });
      atMost("sanDomains", counts.fqdns, product.maxSingleDomains, "domain names");
      atMost("wildcardDomains", counts.wildcards, product.maxWildcards, "wildcards");
      break;
    case "ip":
      mainMustBe("ip", "a public IP address");
      none("sanDomains", names.sanDomains);
      none("wildcardDomains", names.wildcardDomains);
      break;
    case "ip_multi":
      mainMustBe("ip", "a public IP address");
      if (counts.fqdns > 0 && counts.mainKind === "ip") failures.push({ property: "sanDomains", reason: `${what}: only IP addresses are accepted` });
      none("wildcardDomains", names.wildcardDomains);
      atMost("sanDomains", counts.ips, product.maxSingleDomains, "IP addresses");
      break;
  }
  return failures;
}
