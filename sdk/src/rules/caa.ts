/**
 * Whether a name's CAA records let a CA issue, as RFC 8659 (sections 4.2
 * and 4.3) has a CA decide, given the Relevant RRset (found by climbing the
 * tree, which is the DNS lookup's business, not this file's), with RFC
 * 8657's `accounturi` and `validationmethods` parameters. Pure: no lookups,
 * so every case is a unit test.
 */
import type { VerificationMethod } from "../client/types.js";
import { normaliseName } from "./names.js";

/** One CAA property: flags (128 = Issuer Critical), tag and value, as the DNS answer holds them. */
export interface CaaProperty {
  readonly flags: number;
  readonly tag: string;
  readonly value: string;
}

/** An `issue` / `issuewild` value read per RFC 8659 section 4.2. */
export interface IssueValue {
  /** The issuer domain, lower case; undefined when the value names none (`;`, empty, or malformed). */
  readonly issuer?: string;
  /** The text after `;` (RFC 8657's `accounturi`, `validationmethods`, ...); {@link parseParameters} reads it. */
  readonly parameters: string;
  /** The issuer part broke the grammar: it then authorises no CA. */
  readonly malformed: boolean;
}

/** Tags CAs understand; an unknown tag with the critical flag forbids issuance (RFC 8659 section 4.1). */
const KNOWN_TAGS = new Set(["issue", "issuewild", "iodef", "issuemail", "issuevmc", "contactemail", "contactphone"]);
const ISSUER_CRITICAL = 128;
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/**
 * Reads an `issue` / `issuewild` value: the issuer domain before `;`, the
 * parameters after it. Whitespace around each part is allowed; a trailing
 * root dot is tolerated (zone files write it, and CAs accept it).
 *
 * @example
 * parseIssueValue("letsencrypt.org; validationmethods=dns-01") // { issuer: "letsencrypt.org", parameters: "validationmethods=dns-01", malformed: false }
 * parseIssueValue(";") // { issuer: undefined, parameters: "", malformed: false }: no CA may issue
 */
export function parseIssueValue(value: string): IssueValue {
  const semicolon = value.indexOf(";");
  const domain = normaliseName(semicolon === -1 ? value : value.slice(0, semicolon));
  const parameters = semicolon === -1 ? "" : value.slice(semicolon + 1).trim();
  if (domain === "") return { parameters, malformed: false };
  const wellFormed = domain.split(".").every((label) => LABEL.test(label));
  return wellFormed ? { issuer: domain, parameters, malformed: false } : { parameters, malformed: true };
}

const PARAMETER = /^([a-z0-9](?:-*[a-z0-9])*)[ \t]*=[ \t]*([\x21-\x3a\x3c-\x7e]*)$/i;

/**
 * The parameters of an `issue` / `issuewild` value (RFC 8659 section 4.2:
 * `tag=value` pairs separated by `;`), each tag lower case with every value
 * it was given; undefined when they break the grammar (a value with a space,
 * a pair without `=`). An empty part (`; ;`) is tolerated.
 *
 * @example
 * parseParameters("accounturi=https://ca.test/acct/1; validationmethods=dns-01")
 * // Map { "accounturi" => ["https://ca.test/acct/1"], "validationmethods" => ["dns-01"] }
 */
export function parseParameters(text: string): ReadonlyMap<string, readonly string[]> | undefined {
  const parameters = new Map<string, string[]>();
  for (const part of text.split(";").map((p) => p.trim())) {
    if (part === "") continue;
    const match = PARAMETER.exec(part);
    if (!match) return undefined;
    const tag = match[1]!.toLowerCase();
    parameters.set(tag, [...(parameters.get(tag) ?? []), match[2]!]);
  }
  return parameters;
}

/**
 * The RFC 8657 `validationmethods` label of each of the Order's
 * verification methods (spec 4.5), or undefined where none says the same
 * thing. RFC 8657 names ACME's challenge types; a CA's own methods have
 * `ca-` labels this package cannot know:
 * - `dns` (a TXT record) and `cname` (a CNAME record) are changes to the
 *   domain's DNS, as ACME's `dns-01` is;
 * - `file` (a file served over HTTP) is ACME's `http-01`;
 * - e-mail and `dcv` have no ACME equivalent.
 * A `validationmethods` list that does not hold the Order's label refuses.
 */
export const CAA_VALIDATION_METHODS = {
  dns: "dns-01",
  cname: "dns-01",
  file: "http-01",
  "email-admin": undefined,
  "email-postmaster": undefined,
  "email-webmaster": undefined,
  "email-hostmaster": undefined,
  dcv: undefined,
} as const satisfies { readonly [M in VerificationMethod]: string | undefined };

/** What the Order asks the CA for, beyond the name: how it will validate. */
export interface CaaRequest {
  /** The Order's `verificationMethod`; undefined when unset (the product's default, not known before the purchase). */
  readonly verificationMethod?: string;
}

/** Why a property that names the product's CA still does not let it issue for this Order (RFC 8657). */
export interface CaaRestriction {
  readonly property: CaaProperty;
  readonly parameter: "accounturi" | "validationmethods" | "grammar";
  /** What the property demands and what this Order does, in words. */
  readonly detail: string;
}

const METHOD_LABEL = /^[a-z0-9-]+$/i;

/** The restriction that keeps `property` (which names the CA) from authorising this Order; undefined when it authorises it. */
function restrictionOf(property: CaaProperty, parameters: string, request: CaaRequest): CaaRestriction | undefined {
  const shown = formatCaa(property);
  const parsed = parseParameters(parameters);
  if (!parsed) return { property, parameter: "grammar", detail: `${shown} has parameters that break RFC 8659's grammar, so it authorises no issuance` };
  const accounts = parsed.get("accounturi");
  if (accounts) {
    return {
      property,
      parameter: "accounturi",
      detail:
        `${shown} lets only the CA account ${accounts.join(", ")} issue (RFC 8657), and which CA account the reseller buys under is not shown by ` +
        "the Partner API, so this provider cannot tell that it matches",
    };
  }
  const methods = parsed.get("validationmethods");
  if (!methods) return undefined;
  const labels = methods.length === 1 ? methods[0]!.split(",") : [];
  if (labels.length === 0 || !labels.every((label) => METHOD_LABEL.test(label))) {
    return { property, parameter: "grammar", detail: `${shown} has a validationmethods parameter that breaks RFC 8657's grammar, so it authorises no issuance` };
  }
  const allowed = `allows only validation by ${labels.join(", ")} (RFC 8657)`;
  const method = request.verificationMethod;
  if (method === undefined) {
    return { property, parameter: "validationmethods", detail: `${shown} ${allowed}, and verificationMethod is not set (the product's default is not known before the purchase)` };
  }
  const label: string | undefined = Object.hasOwn(CAA_VALIDATION_METHODS, method) ? CAA_VALIDATION_METHODS[method as VerificationMethod] : undefined;
  if (label === undefined) {
    return { property, parameter: "validationmethods", detail: `${shown} ${allowed}, and verificationMethod "${method}" has no RFC 8657 label` };
  }
  if (labels.some((l) => l.toLowerCase() === label)) return undefined;
  return { property, parameter: "validationmethods", detail: `${shown} ${allowed}, and verificationMethod "${method}" validates by ${label}` };
}

/** A property as a zone file writes it: `0 issue "letsencrypt.org"`. @example formatCaa({ flags: 0, tag: "issue", value: ";" }) === '0 issue ";"' */
export function formatCaa(property: CaaProperty): string {
  return `${property.flags} ${property.tag} ${JSON.stringify(property.value)}`;
}

/** What {@link judgeCaa} decided for one name. */
export type CaaVerdict =
  | { readonly allowed: true; readonly reason: "no-caa" | "no-issue-property" | "named" }
  | {
      readonly allowed: false;
      /** `critical`: a critical property the CA does not understand; otherwise the tag whose properties were weighed. */
      readonly reason: "critical" | "issue" | "issuewild";
      /** The issuer domains those properties name (empty: they name none, e.g. `;`). */
      readonly named: readonly string[];
      /** The critical property, for `critical`. */
      readonly critical?: CaaProperty;
      /** Properties that name the product's CA but whose RFC 8657 parameters keep it from issuing for this Order. */
      readonly restricted?: readonly CaaRestriction[];
    };

/**
 * RFC 8659's decision for one name. `rrset` is its Relevant RRset (empty:
 * no CAA anywhere up the tree, anyone may issue); `issuers` the issuer
 * domains of the product's CA; `wildcard` whether the name is `*.`-prefixed
 * (then `issuewild` properties, when any, replace `issue`).
 *
 * @example
 * judgeCaa([{ flags: 0, tag: "issue", value: "letsencrypt.org" }], ["sandbox-ca.test"], false)
 * // { allowed: false, reason: "issue", named: ["letsencrypt.org"] }
 */
export function judgeCaa(rrset: readonly CaaProperty[], issuers: readonly string[], wildcard: boolean, request: CaaRequest = {}): CaaVerdict {
  if (rrset.length === 0) return { allowed: true, reason: "no-caa" };
  const critical = rrset.find((p) => (p.flags & ISSUER_CRITICAL) !== 0 && !KNOWN_TAGS.has(p.tag.toLowerCase()));
  if (critical) return { allowed: false, reason: "critical", named: [], critical };
  const tagged = (tag: string) => rrset.filter((p) => p.tag.toLowerCase() === tag);
  const wild = wildcard ? tagged("issuewild") : [];
  const tag = wild.length > 0 ? "issuewild" : "issue";
  const weighed = wild.length > 0 ? wild : tagged("issue");
  if (weighed.length === 0) return { allowed: true, reason: "no-issue-property" };
  const named = [...new Set(weighed.map((p) => parseIssueValue(p.value).issuer).filter((d): d is string => d !== undefined))];
  const ours = new Set(issuers.map(normaliseName));
  // Any one property naming the CA whose parameters this Order meets is enough.
  const restricted: CaaRestriction[] = [];
  for (const property of weighed) {
    const value = parseIssueValue(property.value);
    if (value.issuer === undefined || !ours.has(value.issuer)) continue;
    const restriction = restrictionOf(property, value.parameters, request);
    if (!restriction) return { allowed: true, reason: "named" };
    restricted.push(restriction);
  }
  return restricted.length > 0 ? { allowed: false, reason: tag, named, restricted } : { allowed: false, reason: tag, named };
}

/** Whose issuer domains were compared: the brand's (from the table) or the Order's `caaIssuerDomains`. */
export type IssuerSource = { readonly brand: string } | { readonly override: true };

/** What {@link describeCaaRefusal} needs. */
export interface CaaRefusal {
  /** The ordered name (`*.example.com` for a wildcard). */
  readonly name: string;
  /** Where the Relevant RRset was found (the name or an ancestor). */
  readonly at: string;
  readonly rrset: readonly CaaProperty[];
  readonly verdict: Extract<CaaVerdict, { allowed: false }>;
  readonly issuers: readonly string[];
  readonly source: IssuerSource;
}

/**
 * The preview failure for a refused name: the name, the records found and
 * where, the issuer domains expected, and the record that would allow it.
 *
 * @example
 * describeCaaRefusal({ name: "www.example.com", at: "example.com", rrset, verdict, issuers: ["sandbox-ca.test"], source: { brand: "sandbox" } })
 * // 'www.example.com: CAA at example.com allows only letsencrypt.org (0 issue "letsencrypt.org"); the product\'s CA (brand sandbox) issues as
 * //  sandbox-ca.test — add `0 issue "sandbox-ca.test"` at example.com, or choose another product. ...'
 */
export function describeCaaRefusal(r: CaaRefusal): string {
  // DNS answers come in any order: issue, then issuewild, then the rest, so the same records always read the same.
  const rank = (p: CaaProperty) => ["issue", "issuewild"].indexOf(p.tag.toLowerCase()) >>> 0;
  const records = [...r.rrset]
    .sort((a, b) => rank(a) - rank(b) || formatCaa(a).localeCompare(formatCaa(b)))
    .map(formatCaa)
    .join(", ");
  const ca = "brand" in r.source ? `the product's CA (brand ${r.source.brand}) issues as ${r.issuers.join(", ")}` : `caaIssuerDomains names ${r.issuers.join(", ")}`;
  const fix = `add \`0 ${r.verdict.reason === "issuewild" ? "issuewild" : "issue"} "${r.issuers[0]}"\` at ${r.at}`;
  const after = "The CA checks CAA before issuing and would refuse after the order is paid; nothing was bought.";
  if (r.verdict.reason === "critical") {
    const p = r.verdict.critical!;
    return (
      `${r.name}: CAA at ${r.at} has the critical property ${formatCaa(p)}, whose tag "${p.tag}" CAs do not know; RFC 8659 forbids issuance then ` +
      `(records: ${records}). Remove it or clear its critical flag (128), or choose another product. ${after}`
    );
  }
  const scope = r.verdict.reason === "issuewild" ? "for wildcard names (issuewild) " : "";
  if (r.verdict.restricted && r.verdict.restricted.length > 0) {
    const kinds = new Set(r.verdict.restricted.map((x) => x.parameter));
    const fixes = [
      ...(kinds.has("validationmethods") ? [`set verificationMethod to one the record allows (${methodChoices()})`] : []),
      `${fix} (without parameters)`,
      ...(kinds.has("accounturi") ? ["or, if that account is the one the reseller buys under at the CA, set caaCheck: false on this Order"] : []),
    ];
    return (
      `${r.name}: CAA at ${r.at} names ${scope}the product's CA only with conditions this Order does not meet: ` +
      `${r.verdict.restricted.map((x) => x.detail).join("; ")} (records: ${records}); ${ca} — ${fixes.join(", ")}. ${after}`
    );
  }
  const allows = r.verdict.named.length === 0 ? `allows no CA ${scope}at all` : `allows ${scope}only ${r.verdict.named.join(", ")}`;
  return `${r.name}: CAA at ${r.at} ${allows} (${records}); ${ca} — ${fix}, or choose another product. ${after}`;
}

/** The verification methods by RFC 8657 label, for messages: `dns or cname for dns-01, file for http-01`. */
function methodChoices(): string {
  const byLabel = new Map<string, string[]>();
  for (const [method, label] of Object.entries(CAA_VALIDATION_METHODS)) if (label) byLabel.set(label, [...(byLabel.get(label) ?? []), method]);
  return [...byLabel].map(([label, methods]) => `${methods.join(" or ")} for ${label}`).join(", ");
}
