import { DOMAIN_TYPE_CODES, isDomainTypeCode, type DomainTypeCode, type Product } from "../client/types.js";
import type { RuleFailure } from "./failure.js";
import { classifyName, isAddress, type NameKind } from "./names.js";

/** The ordered names, classified; built by {@link checkNames}. */
export interface NameCounts {
  mainKind?: NameKind;
  /** Plain domains, main included. */
  fqdns: number;
  /** Wildcards, main included. */
  wildcards: number;
  /** IP addresses (only ever the main name). */
  ips: number;
}

/** The three name inputs of an Order, canonical. */
export interface OrderNames {
  domain: string;
  sanDomains: string[];
  wildcardDomains: string[];
}

const KIND_WORDS: Record<NameKind, string> = {
  fqdn: "a plain domain name",
  wildcard: "a wildcard",
  ipv4: "an IPv4 address",
  ipv6: "an IPv6 address",
};

/**
 * Product-independent name rules (spec 4.3): every name well formed,
 * `sanDomains` plain domains only, `wildcardDomains` wildcards only, each
 * name once. An IP address can only be the main name (`domain`); whether the
 * product takes one is {@link checkDomainType}'s business.
 *
 * @example
 * checkNames({ domain: "example.com", sanDomains: ["*.example.com"], wildcardDomains: [] }).failures
 * // [{ property: "sanDomains", reason: '"*.example.com" is a wildcard; list wildcards in wildcardDomains (or as domain)' }]
 */
export function checkNames(names: OrderNames): { failures: RuleFailure[]; counts: NameCounts } {
  const failures: RuleFailure[] = [];
  const counts: NameCounts = { fqdns: 0, wildcards: 0, ips: 0 };
  const seen = new Map<string, string>();
  const visit = (property: keyof OrderNames, name: string, allowed: readonly NameKind[]): void => {
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
      failures.push({ property, reason: misplaced(property, name, result.kind) });
      return;
    }
    if (property === "domain") counts.mainKind = result.kind;
    if (result.kind === "fqdn") counts.fqdns++;
    else if (result.kind === "wildcard") counts.wildcards++;
    else counts.ips++;
  };
  visit("domain", names.domain, ["fqdn", "wildcard", "ipv4", "ipv6"]);
  names.sanDomains.forEach((name) => visit("sanDomains", name, ["fqdn"]));
  names.wildcardDomains.forEach((name) => visit("wildcardDomains", name, ["wildcard"]));
  return { failures, counts };
}

function misplaced(property: keyof OrderNames, name: string, kind: NameKind): string {
  const quoted = JSON.stringify(name);
  if (property === "wildcardDomains") return `${quoted} is not a wildcard; wildcardDomains takes only names of the form *.example.com`;
  if (kind === "wildcard") return `${quoted} is a wildcard; list wildcards in wildcardDomains (or as domain)`;
  return `${quoted} is ${KIND_WORDS[kind]}; sanDomains takes plain domain names only (an address is ordered alone, as domain of an ipv4 or ipv6 product)`;
}

/** One row of spec 2.3: what the main name may be, which extra lists may be given, whether the counts apply. */
interface DomainTypeRule {
  /** How the product is described in messages. */
  words: string;
  main: readonly NameKind[];
  sanDomains: boolean;
  wildcardDomains: boolean;
  /**
   * Whether `max_single_domains` / `max_wildcards` bound the names. The
   * one-name types are bounded by their shape already; a catalogue that says
   * 0 for an IP product's plain domains must not refuse its one address.
   */
  counted: boolean;
}

/** Spec 2.3, one entry per domain type code of the client's vocabulary. */
const DOMAIN_TYPE_RULES: { readonly [T in DomainTypeCode]: DomainTypeRule } = {
  single: {
    words: "a single product (exactly one plain domain; no sanDomains, no wildcardDomains)",
    main: ["fqdn"],
    sanDomains: false,
    wildcardDomains: false,
    counted: false,
  },
  wildcard: {
    words: "a wildcard product (domain is *.<domain>; no extra names)",
    main: ["wildcard"],
    sanDomains: false,
    wildcardDomains: false,
    counted: false,
  },
  "multiple-single": {
    words: "a multiple-single product (domain and sanDomains are plain domains; wildcards are not supported)",
    main: ["fqdn"],
    sanDomains: true,
    wildcardDomains: false,
    counted: true,
  },
  "multiple-wildcard": {
    words: "a multiple-wildcard product (domain and wildcardDomains are wildcards; no sanDomains)",
    main: ["wildcard"],
    sanDomains: false,
    wildcardDomains: true,
    counted: true,
  },
  "multiple-mix": {
    words: "a multiple-mix product (plain domains and wildcards mixed; no IP addresses)",
    main: ["fqdn", "wildcard"],
    sanDomains: true,
    wildcardDomains: true,
    counted: true,
  },
  ipv4: {
    words: "an ipv4 product (domain is one public IPv4 address; no extra names)",
    main: ["ipv4"],
    sanDomains: false,
    wildcardDomains: false,
    counted: false,
  },
  ipv6: {
    words: "an ipv6 product (domain is one public IPv6 address; no extra names)",
    main: ["ipv6"],
    sanDomains: false,
    wildcardDomains: false,
    counted: false,
  },
};

/** Result of {@link checkDomainType}. */
export interface DomainTypeCheck {
  failures: RuleFailure[];
  /**
   * Set when the product's domain type is not one of the seven of spec 2.3:
   * what was not checked, for a preview warning (the product is not failed).
   */
  unchecked?: string;
}

/**
 * The product's domain-type rules (spec 2.3) and name counts
 * (`max_single_domains`, `max_wildcards`) on names that passed
 * {@link checkNames}. A domain type this version does not know is not
 * judged: the result says so in `unchecked`.
 *
 * @example
 * const { counts } = checkNames({ domain: "*.example.com", sanDomains: [], wildcardDomains: [] });
 * checkDomainType(multiSingleProduct, { sanDomains: [], wildcardDomains: [] }, counts).failures
 * // [{ property: "domain", reason: "sandbox-dv-multi is a multiple-single product (...): domain must be a plain domain name, not a wildcard" }]
 */
export function checkDomainType(product: Product, names: Omit<OrderNames, "domain">, counts: NameCounts): DomainTypeCheck {
  const type = product.domainTypeCode;
  if (!isDomainTypeCode(type)) {
    return {
      failures: [],
      unchecked:
        `product ${product.productCode} has domain type ${JSON.stringify(type)}, which is not one of the specification's ` +
        `(${DOMAIN_TYPE_CODES.join(", ")}): the domain-type rules were NOT checked ` +
        "(what domain may be, whether sanDomains/wildcardDomains may be given, IP addresses) nor the name counts " +
        "(max_single_domains, max_wildcards); the names themselves were checked for form and duplicates",
    };
  }
  const rule = DOMAIN_TYPE_RULES[type];
  const what = `${product.productCode} is ${rule.words}`;
  const failures: RuleFailure[] = [];
  if (counts.mainKind !== undefined && !rule.main.includes(counts.mainKind)) {
    const wanted = rule.main.map((kind) => KIND_WORDS[kind]).join(" or ");
    failures.push({ property: "domain", reason: `${what}: domain must be ${wanted}, not ${KIND_WORDS[counts.mainKind]}` });
  }
  if (!rule.sanDomains && names.sanDomains.length > 0) {
    failures.push({ property: "sanDomains", reason: `${what}: sanDomains must be empty` });
  }
  if (!rule.wildcardDomains && names.wildcardDomains.length > 0) {
    failures.push({ property: "wildcardDomains", reason: `${what}: wildcardDomains must be empty` });
  }
  if (rule.counted && !isAddress(counts.mainKind)) {
    if (rule.sanDomains && counts.fqdns > product.maxSingleDomains) {
      failures.push({
        property: names.sanDomains.length > 0 ? "sanDomains" : "domain",
        reason: `${what}: at most ${product.maxSingleDomains} plain domain names in total (domain included), got ${counts.fqdns}`,
      });
    }
    if (rule.wildcardDomains && counts.wildcards > product.maxWildcards) {
      failures.push({
        property: names.wildcardDomains.length > 0 ? "wildcardDomains" : "domain",
        reason: `${what}: at most ${product.maxWildcards} wildcards in total (domain included), got ${counts.wildcards}`,
      });
    }
  }
  return { failures };
}
