import type { CompanyInfo, Product } from "../client/types.js";
import type { RuleFailure } from "./failure.js";

/** The members spec 2.4 requires of `company_info`. */
export const COMPANY_REQUIRED = ["companyName", "countryCode", "contactFirst", "contactLast", "email"] as const;
/** The members spec 2.4 lists as optional. */
export const COMPANY_OPTIONAL = [
  "registrationNo",
  "countryName",
  "province",
  "city",
  "address",
  "postalCode",
  "phone",
  "contactTitle",
  "idNumber",
] as const;

// The two lists above must be exactly the client's CompanyInfo, required and optional members apart.
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const requiredMatch: Same<(typeof COMPANY_REQUIRED)[number], RequiredKeys<CompanyInfo>> = true;
const allMatch: Same<(typeof COMPANY_REQUIRED)[number] | (typeof COMPANY_OPTIONAL)[number], keyof CompanyInfo> = true;
void requiredMatch;
void allMatch;

/**
 * Members of the Order's former `companyInfo` shape and what replaced each,
 * so a program written for it is told what to write instead of being told
 * only that the member is unknown.
 */
const RENAMED: Readonly<Record<string, string>> = {
  registrationNumber: "use registrationNo",
  country: "use countryCode (two letters, e.g. \"DE\"); the country's name may go in countryName",
  state: "use province",
  contactName: "use contactFirst (the contact's family name) and contactLast (the given name)",
  contactEmail: "use email",
  contactPhone: "use phone",
};

/**
 * OV and EV products need the organisation (CreateOrder takes `company_id`
 * or `company_info` for them only).
 *
 * @example
 * requiresCompany({ verificationTypeCode: "ov" } as Product) === true
 */
export function requiresCompany(product: Product): boolean {
  return product.verificationTypeCode === "ov" || product.verificationTypeCode === "ev";
}

/** Result of {@link readCompanyInfo}: the canonical value, or what is wrong with it. */
export type CompanyInfoResult = { value: CompanyInfo; failures?: undefined } | { failures: RuleFailure[]; value?: undefined };

/**
 * Checks `companyInfo` against spec 2.4 wherever it is given: an object of
 * string members, the five required ones non-empty, `countryCode` two
 * letters, `email` an address, no member outside the specification's (a
 * former member's failure names its replacement). A failure quotes no
 * personal value (the input is a secret); only the country code is quoted. Returns the trimmed value
 * with `countryCode` upper-cased and empty optional members left out.
 *
 * @example
 * readCompanyInfo({ companyName: "Acme", countryCode: "de", contactFirst: "Muster", contactLast: "Erika", email: "ops@acme.test" }).value?.countryCode // "DE"
 */
export function readCompanyInfo(info: unknown): CompanyInfoResult {
  if (info === null || typeof info !== "object" || Array.isArray(info)) {
    return { failures: [{ property: "companyInfo", reason: `must be an object with the members ${COMPANY_REQUIRED.join(", ")} (and optionally ${COMPANY_OPTIONAL.join(", ")})` }] };
  }
  const record = info as Record<string, unknown>;
  const failures: RuleFailure[] = [];
  const value: Record<string, string> = {};
  for (const [member, raw] of Object.entries(record)) {
    if (raw === undefined || raw === null) continue;
    const property = `companyInfo.${member}`;
    if (member in RENAMED) {
      failures.push({ property, reason: `is not a member of company_info (spec 2.4): ${RENAMED[member]}` });
      continue;
    }
    if (!(COMPANY_REQUIRED as readonly string[]).includes(member) && !(COMPANY_OPTIONAL as readonly string[]).includes(member)) {
      failures.push({ property, reason: `is not a member of company_info (spec 2.4); members: ${[...COMPANY_REQUIRED, ...COMPANY_OPTIONAL].join(", ")}` });
      continue;
    }
    if (typeof raw !== "string") {
      failures.push({ property, reason: `must be a string, got ${kindOf(raw)}` });
      continue;
    }
    if (raw.trim() !== "") value[member] = raw.trim();
  }
  for (const member of COMPANY_REQUIRED) {
    if (value[member] === undefined && !failures.some((f) => f.property === `companyInfo.${member}`)) {
      failures.push({ property: `companyInfo.${member}`, reason: "is required (spec 2.4) and must be a non-empty string" });
    }
  }
  if (value.countryCode !== undefined) {
    if (/^[A-Za-z]{2}$/.test(value.countryCode)) value.countryCode = value.countryCode.toUpperCase();
    else failures.push({ property: "companyInfo.countryCode", reason: `${JSON.stringify(value.countryCode)} is not a two-letter country/region code (e.g. "DE")` });
  }
  if (value.email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value.email)) {
    failures.push({ property: "companyInfo.email", reason: "is not an e-mail address (name@domain)" });
  }
  return failures.length > 0 ? { failures } : { value: value as unknown as CompanyInfo };
}

/**
 * What kind of value a member holds, for a failure: `companyInfo` is a
 * secret (a person's ID number, phone and e-mail), so its values are never
 * quoted.
 *
 * @example
 * kindOf(10115) === "a number"
 */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  return typeof value === "number" ? "a number" : `a ${typeof value}`;
}

/**
 * Whether the product needs an organisation and the order names one.
 *
 * @example
 * checkCompanyPresence(ovProduct, {}) // [{ property: "companyInfo", reason: "sandbox-ov-single is OV: give companyInfo (...) or companyId" }]
 */
export function checkCompanyPresence(product: Product, spec: { companyId?: number; companyInfo?: CompanyInfo }): RuleFailure[] {
  if (!requiresCompany(product) || spec.companyId !== undefined || spec.companyInfo !== undefined) return [];
  return [
    {
      property: "companyInfo",
      reason: `${product.productCode} is ${product.verificationTypeCode.toUpperCase()}: give companyInfo (at least ${COMPANY_REQUIRED.join(", ")}) or companyId`,
    },
  ];
}
