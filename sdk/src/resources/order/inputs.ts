/**
 * Every input of an `Order`, declared once: its type and default as the
 * reference documents them, how a value is checked and canonicalised, and
 * what a change does on the next `up` (a new purchase, an in-place update,
 * or nothing). The normaliser (`normalize.ts`), the diff, `REPLACE_KEYS` /
 * `UPDATE_KEYS` and the purchase-change test of `check` derive from this
 * table; `OrderArgs`, the package schema and the reference tables are
 * generated from it with the outputs (`declaration.ts`, `npm run generate`).
 * `OrderInputs` is the inputs' type as the provider sees them after `check`;
 * the compiler holds it to this table.
 */
import {
  DEFAULT_KEY_SPEC,
  HASH_ALGORITHMS,
  KEY_SPECS,
  PAYMENT_METHODS,
  SIGNATURE_ALGORITHMS,
  VERIFICATION_METHODS,
  emailSuffixOf,
  isSignatureAlgorithm,
} from "../../client/vocabulary.js";
import type { CreateOrderRequest } from "../../client/types.js";
import { UNKNOWN } from "../../provider/unknown.js";
import { bad, flag, integer, ok, oneOf, quoted, text } from "../../schema/parse.js";
import * as t from "../../schema/property.js";
import type { Change, InputRecord, Parsed, PropertyDeclaration } from "../../schema/property.js";
import { canonicalName, readCompanyInfo } from "../../rules/index.js";
import { sameMethod } from "../shared/verification-method.js";
import { COMPANY_INFO, companyMembers } from "./company-info.js";
import type { OrderInputValues } from "./properties.generated.js";

export type { InputRecord, Parsed } from "../../schema/property.js";

/** What a changed input does on the next `up`. */
export type InputChange = Change;

/**
 * One Order input: every input has a parse rule and a change effect, and
 * what it is sent as names a CreateOrder request member.
 *
 * @example
 * const months: InputDeclaration = ORDER_INPUTS.months;
 * months.change; // "replace"
 */
export interface InputDeclaration extends PropertyDeclaration {
  readonly change: InputChange;
  parse: NonNullable<PropertyDeclaration["parse"]>;
  /** The CreateOrder request member (see the client's request fields); absent: the input never reaches the service. */
  readonly sentAs?: { readonly field: CreateOrderField; readonly with?: Readonly<Partial<Record<CreateOrderField, string>>> };
}

/** A member of the CreateOrder request. */
export type CreateOrderField = t.KeysOfUnion<CreateOrderRequest>;

function nameList(value: unknown, property: string): Parsed {
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) return bad(property, "must be a list of names");
  const canonical = (value as string[]).map(canonicalName);
  // Sorted, so that a reordered list is the same purchase (no diff).
  const unique = [...new Set(canonical)].sort();
  return unique.length === canonical.length ? ok(unique) : bad(property, "lists a name more than once; list each name once");
}

/** Same names in any order and case. */
function sameNames(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (Array.isArray(v) ? v.map((s) => String(s).toLowerCase()).sort() : []);
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

/** Former `companyInfo` members and the spec 2.4 member each became (`contactName` became two). */
const FORMER_COMPANY_MEMBERS: Readonly<Record<string, string>> = {
  companyName: "companyName",
  registrationNumber: "registrationNo",
  country: "countryCode",
  state: "province",
  city: "city",
  address: "address",
  postalCode: "postalCode",
  contactEmail: "email",
  contactPhone: "phone",
};

/**
 * Whether an order bought with the former `companyInfo` members names the
 * same company as the new members. Moving a program to the specification's
 * members is not a new company, and must not buy a new OV/EV order.
 */
function sameCompanyAcrossRename(old: Record<string, unknown>, next: Record<string, unknown>): boolean {
  if (!("contactName" in old) && !Object.keys(old).some((k) => k in FORMER_COMPANY_MEMBERS && FORMER_COMPANY_MEMBERS[k] !== k)) return false;
  const norm = (v: unknown) => (typeof v === "string" ? v.trim().toLowerCase() : "");
  const words = (...v: unknown[]) => JSON.stringify([...new Set(v.flatMap((x) => norm(x).split(/\s+/)).filter(Boolean))].sort());
  const mapped = new Set<string>(["contactFirst", "contactLast"]);
  for (const [former, current] of Object.entries(FORMER_COMPANY_MEMBERS)) {
    mapped.add(current);
    if (norm(old[former]) !== norm(next[current])) return false;
  }
  if (Object.keys(next).some((member) => !mapped.has(member))) return false;
  return words(old.contactName) === words(next.contactFirst, next.contactLast);
}

function sameCompany(old: unknown, next: unknown): boolean {
  if (JSON.stringify(old ?? null) === JSON.stringify(next ?? null)) return true;
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
  return isObject(old) && isObject(next) && sameCompanyAcrossRename(old, next);
}

const EMAIL_METHODS = VERIFICATION_METHODS.filter((method) => emailSuffixOf(method) !== undefined);

function verificationMethod(value: unknown, property: string): Parsed {
  const code = typeof value === "string" ? value.trim().toLowerCase() : value;
  if (code === "email") {
    return bad(
      property,
      `"email" is not a method code of the specification (spec 4.5): the code names the mailbox; use ${quoted(EMAIL_METHODS)} (this replaces the former emailSuffix input)`,
    );
  }
  if (code === "https") {
    return bad(property, `"https" is not a method code of the specification (spec 4.5); file validation over HTTP is "file"; codes: ${quoted(VERIFICATION_METHODS)}`);
  }
  return oneOf(VERIFICATION_METHODS)(value, property);
}

function customCsr(value: unknown, property: string): Parsed {
  // One line-ending form, so the same CSR pasted on Windows is no change.
  return typeof value === "string" && value.trim() !== ""
    ? ok(value.replace(/\r\n/g, "\n").trim() + "\n")
    : bad(property, "must be a PEM certificate signing request");
}

/** Issuer domains as CAA values name a CA (RFC 8659 section 4.2): `sectigo.com`, lower case, no root dot. */
function issuerDomains(value: unknown, property: string): Parsed {
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) return bad(property, "must be a list of CAA issuer domains, e.g. [\"sectigo.com\"]");
  const domains = [...new Set((value as string[]).map((v) => v.trim().toLowerCase().replace(/\.$/, "")))];
  if (domains.length === 0) return bad(property, "must name at least one CAA issuer domain; to skip the CAA check set caaCheck: false");
  const wrong = domains.find((d) => !/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/.test(d));
  return wrong === undefined
    ? ok(domains)
    : bad(property, `${JSON.stringify(wrong)} is not an issuer domain (a domain name as CAA "issue" values name a CA, e.g. "sectigo.com")`);
}

function adoptOrderNo(value: unknown, property: string): Parsed {
  return typeof value === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(value.trim())
    ? ok(value.trim())
    : bad(property, `must be an order number such as "CERT202607041730001234", got ${JSON.stringify(value)}`);
}

/**
 * An input naming one value of a vocabulary (the enum `name` of `values`),
 * sent as the CreateOrder member of its name; a change is a new purchase and
 * unset reads as `fallback`.
 */
const choice = <const F extends CreateOrderField>(field: F, description: string, name: string, values: readonly string[], typeDescription: string, fallback: string) =>
  ({
    description,
    type: t.enumOf(name, values, typeDescription),
    defaultNote: `\`${fallback}\``,
    change: "replace",
    parse: oneOf(values),
    fallback: () => fallback,
    sentAs: { field },
  }) as const;

/** An input listing further names, sent as the CreateOrder member of its name: their order is no change, unset reads as `[]`. */
const names = <const F extends CreateOrderField>(field: F, description: string, typeNote: string, changeNote: string) =>
  ({
    description,
    type: t.listOf(t.string),
    typeNote,
    defaultNote: "`[]`",
    change: "replace",
    changeNote,
    parse: nameList,
    fallback: () => [],
    same: sameNames,
    sentAs: { field },
  }) as const;

/**
 * The Order's inputs, in the order failures are reported and the reference
 * lists them.
 *
 * @example
 * Object.entries(ORDER_INPUTS).filter(([, d]) => d.change === "update").map(([name]) => name); // ["verificationMethod"]
 */
export const ORDER_INPUTS = {
  productCode: {
    description: "Product to buy (see `getProducts`).",
    type: t.string,
    typeNote: "string (see `getProducts`)",
    defaultNote: "— (required)",
    change: "replace",
    required: true,
    parse: text("product code"),
    sentAs: { field: "productCode" },
  },
  domain: {
    description: "Main name: a domain name, a `*.` wildcard, or a public IPv4/IPv6 address, as the product's domain type allows (spec 2.3).",
    type: t.string,
    typeNote: "string: a domain name, a `*.` wildcard, or a public IPv4/IPv6 address, as the product's domain type allows",
    defaultNote: "— (required)",
    change: "replace",
    required: true,
    parse: (value, property) => (typeof value === "string" ? ok(canonicalName(value)) : bad(property, "must be a name")),
    sentAs: { field: "domain" },
  },
  sanDomains: names(
    "sanDomains",
    "Further plain domain names; their order does not matter.",
    "string[] (plain domain names)",
    "a different *order* of the same names is no change",
  ),
  wildcardDomains: names("wildcardDomains", "Further wildcards (`*.example.com`).", "string[] (`*.example.com`)", "order-insensitive"),
  years: {
    description: "Term in years; alone it means `years * 12` months. Given with `months` the two must agree.",
    type: t.integer,
    typeNote: "number (whole years)",
    defaultNote: "—",
    change: "replace",
    changeNote: "`years: 2` and `months: 24` are the same term (no change)",
    parse: integer(1, 10),
    // The term is what is bought: a program that moves from `months: 24` to `years: 2` buys nothing new.
    same: (old, next, olds, news) => old === next || (typeof news.months === "number" && olds.months === news.months),
    sentAs: { field: "years" },
  },
  months: {
    description: "Term in months.",
    type: t.integer,
    typeNote: "number (whole months)",
    defaultNote: "`years * 12` when `years` is given, else 12",
    change: "replace",
    parse: integer(1, 120),
    fallback: (values, unknown) => (unknown.has("years") ? UNKNOWN : typeof values.years === "number" ? values.years * 12 : 12),
    sentAs: { field: "months" },
  },
  verificationMethod: {
    description: "Domain-control validation method (spec 4.5 codes; `email-…` names the mailbox).",
    outputDescription:
      "the method in effect, as ApplySign (or the method change) reported it: the product's default when the input is unset. `email` may stand for an `email-…` method.",
    type: t.enumOf("VerificationMethod", VERIFICATION_METHODS, "A domain-control validation method (spec 4.5)."),
    tsOutputType: "Open<VerificationMethod>",
    defaultNote: "— (the service applies the product's default; the `verificationMethod` output then says which)",
    change: "update",
    changeNote: "ChangeVertificationMethod while validation is pending; the service allows one change per 5 minutes",
    parse: verificationMethod,
    // Unset keeps whatever method the order has.
    same: (old, next) => next === undefined || sameMethod(old, next),
    sentAs: { field: "verificationMethod" },
  },
  signatureAlgorithm: choice("signatureAlgorithm", "Signature algorithm of the certificate's key.", "SignatureAlgorithm", SIGNATURE_ALGORITHMS, "A signature algorithm.", "rsa"),
  keySpec: {
    description: "Key type and size; it must fit the signature algorithm.",
    type: t.enumOf("KeySpec", KEY_SPECS, "A key type and size."),
    defaultNote: "from the algorithm (`rsa-2048`, `p-256`, `sm2`)",
    change: "replace",
    parse: oneOf(KEY_SPECS),
    fallback: (values, unknown) => {
      if (unknown.has("signatureAlgorithm")) return UNKNOWN;
      const algorithm = values.signatureAlgorithm;
      return isSignatureAlgorithm(algorithm) ? DEFAULT_KEY_SPEC[algorithm] : undefined;
    },
    sentAs: { field: "keySpec" },
  },
  hashAlgorithm: choice("hashAlgorithm", "Hash algorithm of the certificate's signature.", "HashAlgorithm", HASH_ALGORITHMS, "A hash algorithm.", "sha256"),
  paymentMethod: choice("paymentMethod", "How the order is paid: the account balance or credit.", "PaymentMethod", PAYMENT_METHODS, "A payment method.", "balance"),
  companyId: {
    description: "A company registered with the reseller (OV/EV), instead of `companyInfo`.",
    type: t.integer,
    typeNote: "number (a company registered with the reseller)",
    defaultNote: "—",
    change: "replace",
    parse: integer(1, Number.MAX_SAFE_INTEGER),
    sentAs: { field: "companyId" },
  },
  companyInfo: {
    description:
      "The organisation (spec 2.4), required for OV/EV unless `companyId` is given. `contactFirst` is the contact's family name, `contactLast` the given name.",
    type: COMPANY_INFO,
    tsType: "CompanyInfo",
    typeNote: `\`{ ${companyMembers()} }\``,
    defaultNote: "— (required for OV/EV unless `companyId`)",
    change: "replace",
    // A person's ID number, phone and e-mail: encrypted in state on both front ends.
    secret: true,
    parse: (value) => readCompanyInfo(value),
    same: sameCompany,
    sentAs: { field: "companyInfo" },
  },
  customCsr: {
    description: "Your own PEM CSR; the service then holds no private key.",
    type: t.string,
    typeNote: "PEM CSR; its names, key and organisation must match the order",
    defaultNote: "— (the service generates the key)",
    change: "replace",
    parse: customCsr,
    sentAs: { field: "customCsr" },
  },
  couponCode: {
    description: "Coupon code (`quotedPrice` is before the coupon).",
    type: t.string,
    defaultNote: "—",
    change: "replace",
    parse: text("coupon code"),
    sentAs: { field: "couponCode", with: { couponType: "code" } },
  },
  renewBeforeDays: {
    description:
      "Renew this many days before the current certificate expires (its `notAfter`). Inside the window, while the order has another installment, " +
      "the Order is updated in place (the next certificate is submitted, nothing is bought); once no installment is left, the Order is replaced " +
      "(a new purchase). A preview shows which and why.",
    type: t.integer,
    typeNote: "number (days before the current certificate's `notAfter`)",
    defaultNote: "— (no renewal)",
    change: "none",
    changeNote:
      "inside the window a preview shows an **update** (the next installment of the order is reissued) with the reason, or a **replace** (a new purchase) when the order has no installment left",
    parse: integer(0, 3650),
  },
  renewBeforePercentage: {
    description:
      "Renew when this percentage (1-99) of the current certificate's lifetime is left, like cert-manager's `renewBeforePercentage`; with `renewBeforeDays` too, the earlier window wins.",
    type: t.integer,
    typeNote: "number (percent of the current certificate's lifetime left, 1-99)",
    defaultNote: "— (no renewal)",
    change: "none",
    changeNote: "as `renewBeforeDays`; with both, the earlier window wins",
    parse: integer(1, 99),
  },
  caaCheck: {
    description:
      "Check at preview, before anything is bought, that each name's CAA records (RFC 8659: the name's, else its parent's, up to the " +
      "top-level domain) let the product's CA issue; a name they refuse fails the preview, naming the records and the issuer domains expected. " +
      "Only a new purchase is checked. A DNS lookup that fails is a warning, not a failure. Unset: on, except against a Partner API on this " +
      "machine (a loopback base URL, the sandbox) while `certreseller:dnsResolvers` is unset.",
    type: t.boolean,
    defaultNote: "on (off against a loopback base URL unless `certreseller:dnsResolvers` is set)",
    change: "none",
    changeNote: "a check at preview; nothing is bought or changed",
    parse: flag,
  },
  caaIssuerDomains: {
    description:
      "The CAA issuer domains (`issue` / `issuewild` values) that name the product's CA, instead of the ones this package assumes for the " +
      "product's brand — for a brand it does not know (a preview warning then), or a CA with other domains. Not sent to the service.",
    type: t.listOf(t.string),
    typeNote: "string[] (issuer domains, e.g. `sectigo.com`)",
    defaultNote: "the product's brand's domains (see the CAA check)",
    change: "none",
    changeNote: "used by the CAA check at preview only",
    parse: issuerDomains,
  },
  adoptOrderNo: {
    description:
      "Adopt an existing order instead of buying: `up` verifies that it exists, belongs to the account and covers exactly the declared names, " +
      "then records it. In TypeScript this is how to import an order (the `import` option cannot load dynamic providers); through the provider " +
      "plugin, `pulumi import` writes it for you. Also the repair path after an interrupted create. Naming the order the resource holds is no change.",
    type: t.string,
    typeNote: "string: an existing order to take over instead of buying",
    defaultNote: "—",
    change: "replace",
    changeNote: "only when it names another order than the one this resource holds",
    parse: adoptOrderNo,
    same: (_old, next, olds) => next === undefined || next === olds.orderNo,
  },
} as const satisfies Record<string, InputDeclaration>;

/** The name of an Order input. */
export type OrderInputName = keyof typeof ORDER_INPUTS;

/** The declarations, typed for iteration. */
export const INPUT_DECLARATIONS = Object.entries(ORDER_INPUTS) as [OrderInputName, InputDeclaration][];

const named = (change: InputChange) => INPUT_DECLARATIONS.filter(([, d]) => d.change === change).map(([name]) => name);

/** Inputs whose change needs a new purchase. */
export const REPLACE_KEYS: readonly OrderInputName[] = named("replace");

/** Inputs changed in place (ChangeVertificationMethod). */
export const UPDATE_KEYS: readonly OrderInputName[] = named("update");

/**
 * Inputs the Order no longer takes, and what to write instead: a program
 * written for an earlier release is told at preview, before anything is
 * bought, rather than having the value ignored.
 */
export const RETIRED_INPUTS: Readonly<Record<string, string>> = {
  emailSuffix: `was removed: the method code names the mailbox; set verificationMethod to one of ${quoted(EMAIL_METHODS)}`,
};

/**
 * What the class and the provider add to the program's inputs: the journal
 * key (the resource's URN) and scope (organisation), the quoted price and the
 * order a create will resume (`check`) and the provider text. None is
 * compared by the diff.
 */
export const INTERNAL_INPUTS = ["journalKey", "journalScope", "quotedPrice", "resumesOrderNo", "__provider"] as const;

/**
 * Order inputs as the provider sees them after `check` (canonical names,
 * defaults applied): the declared inputs (the purchase the rules judge, the
 * renewal settings, adoption) and what the class and `check` add.
 */
export interface OrderInputs extends OrderInputValues {
  /**
   * The resource's URN, set by the class: the purchase journal's key (a
   * stable identity across runs) and what ties provider warnings to the
   * resource in previews.
   */
  journalKey: string;
  /**
   * Set by the class: `org=<organisation>`, part of the journal key so that
   * stacks of the same project and stack names in other organisations or
   * backends never share an entry (see journal/key.ts). Not compared: a
   * change is no diff. Absent in state written by an earlier release.
   */
  journalScope?: string;
  /** Added by `check`: what `up` will spend (before any coupon). */
  quotedPrice?: string;
  /**
   * Added by `check`: the order the purchase journal holds for this Order
   * (bought by a create that did not finish), which `up` will resume instead
   * of buying; the preview's money reading counts it as no charge.
   */
  resumesOrderNo?: string;
  __provider?: string;
}

// The interface above holds exactly the declared inputs and the internal ones.
const inputsMatchDeclaration: t.Same<keyof OrderInputs, OrderInputName | (typeof INTERNAL_INPUTS)[number]> = true;
void inputsMatchDeclaration;

/**
 * Whether an old output and a new input of `name` are the same.
 *
 * @example
 * sameInput("sanDomains", ["b", "a"], ["a", "b"], olds, news) === true
 */
export function sameInput(name: OrderInputName, old: unknown, next: unknown, olds: InputRecord, news: InputRecord): boolean {
  return t.sameValue(ORDER_INPUTS[name], old, next, olds, news);
}
