import type {
  CompanyInfo,
  EmailSuffix,
  HashAlgorithm,
  KeySpec,
  PaymentMethod,
  SignatureAlgorithm,
  VerificationMethod,
} from "../client/types.js";

/**
 * A purchase as the rules see it: names already lower-cased, trimmed and
 * sorted, defaults applied where they do not depend on the product (see
 * `normalizeOrder`). At preview any field may still hold the engine's
 * placeholder; `checkOrder` skips the rules that depend on such a field.
 */
export interface OrderSpec {
  productCode: string;
  domain: string;
  sanDomains: string[];
  wildcardDomains: string[];
  months: number;
  signatureAlgorithm: SignatureAlgorithm;
  keySpec: KeySpec;
  hashAlgorithm: HashAlgorithm;
  paymentMethod: PaymentMethod;
  verificationMethod?: VerificationMethod;
  emailSuffix?: EmailSuffix;
  companyId?: number;
  companyInfo?: CompanyInfo;
  customCsr?: string;
  couponCode?: string;
}

export const SIGNATURE_ALGORITHMS: readonly SignatureAlgorithm[] = ["rsa", "ecc", "sm2"];
export const KEY_SPECS: Readonly<Record<SignatureAlgorithm, readonly KeySpec[]>> = {
  rsa: ["rsa-2048", "rsa-3072", "rsa-4096"],
  ecc: ["p-256", "p-384"],
  sm2: ["sm2"],
};
/** The key spec the service derives when none is given. */
export const DEFAULT_KEY_SPEC: Readonly<Record<SignatureAlgorithm, KeySpec>> = { rsa: "rsa-2048", ecc: "p-256", sm2: "sm2" };
export const HASH_ALGORITHMS: readonly HashAlgorithm[] = ["sha256", "sha384"];
export const PAYMENT_METHODS: readonly PaymentMethod[] = ["balance", "credit"];
export const VERIFICATION_METHODS: readonly VerificationMethod[] = ["dns", "cname", "file", "https", "email"];
export const EMAIL_SUFFIXES: readonly EmailSuffix[] = ["admin", "postmaster", "webmaster", "hostmaster"];
export const COMPANY_FIELDS: readonly (keyof CompanyInfo)[] = [
  "companyName",
  "registrationNumber",
  "country",
  "state",
  "city",
  "address",
  "postalCode",
  "contactName",
  "contactEmail",
  "contactPhone",
];
