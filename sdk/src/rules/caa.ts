/**
 * Whether a name's CAA records let a CA issue, as RFC 8659 (sections 4.2
 * and 4.3) has a CA decide, given the Relevant RRset (found by climbing the
 * tree, which is the DNS lookup's business, not this file's). Pure: no
 * lookups, so every case is a unit test.
 */

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
  /** The text after `;` (RFC 8657's `accounturi`, `validationmethods`, ...), not evaluated. */
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
  const domain = (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase().replace(/\.$/, "");
  const parameters = semicolon === -1 ? "" : value.slice(semicolon + 1).trim();
  if (domain === "") return { parameters, malformed: false };
  const wellFormed = domain.split(".").every((label) => LABEL.test(label));
  return wellFormed ? { issuer: domain, parameters, malformed: false } : { parameters, malformed: true };
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
export function judgeCaa(rrset: readonly CaaProperty[], issuers: readonly string[], wildcard: boolean): CaaVerdict {
  if (rrset.length === 0) return { allowed: true, reason: "no-caa" };
  const critical = rrset.find((p) => (p.flags & ISSUER_CRITICAL) !== 0 && !KNOWN_TAGS.has(p.tag.toLowerCase()));
  if (critical) return { allowed: false, reason: "critical", named: [], critical };
  const tagged = (tag: string) => rrset.filter((p) => p.tag.toLowerCase() === tag);
  const wild = wildcard ? tagged("issuewild") : [];
  const tag = wild.length > 0 ? "issuewild" : "issue";
  const weighed = wild.length > 0 ? wild : tagged("issue");
  if (weighed.length === 0) return { allowed: true, reason: "no-issue-property" };
  const named = [...new Set(weighed.map((p) => parseIssueValue(p.value).issuer).filter((d): d is string => d !== undefined))];
  const ours = new Set(issuers.map((d) => d.trim().toLowerCase().replace(/\.$/, "")));
  return named.some((d) => ours.has(d)) ? { allowed: true, reason: "named" } : { allowed: false, reason: tag, named };
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
  const allows = r.verdict.named.length === 0 ? `allows no CA ${scope}at all` : `allows ${scope}only ${r.verdict.named.join(", ")}`;
  return `${r.name}: CAA at ${r.at} ${allows} (${records}); ${ca} — ${fix}, or choose another product. ${after}`;
}
