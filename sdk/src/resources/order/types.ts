import type {
  CertStatus,
  CompanyInfo,
  EmailSuffix,
  HashAlgorithm,
  KeySpec,
  OrderPrice,
  OrderStatus,
  PaymentMethod,
  SignatureAlgorithm,
  ValidationRecord,
  VerificationMethod,
} from "../../client/types.js";

/** Order inputs as the provider sees them after `check` (canonical names, defaults applied). */
export interface OrderInputs {
  productCode: string;
  domain: string;
  sanDomains: string[];
  wildcardDomains: string[];
  months: number;
  verificationMethod?: VerificationMethod;
  emailSuffix?: EmailSuffix;
  signatureAlgorithm: SignatureAlgorithm;
  keySpec: KeySpec;
  hashAlgorithm: HashAlgorithm;
  paymentMethod: PaymentMethod;
  companyId?: number;
  companyInfo?: CompanyInfo;
  customCsr?: string;
  couponCode?: string;
  renewBeforeDays?: number;
  adoptOrderNo?: string;
  /**
   * The resource's URN, set by the class: the purchase journal's key (a
   * stable identity across runs) and what ties provider warnings to the
   * resource in previews.
   */
  journalKey: string;
  /** Added by `check`: what `up` will spend (before any coupon). */
  quotedPrice?: string;
  __provider?: string;
}

/**
 * What an order cost, as stored in the Order's `price` output.
 *
 * @example
 * ```ts
 * export const charged = order.price.apply((p) => p?.total); // "140.00"
 * ```
 */
export type OrderPriceState = Pick<
  OrderPrice,
  "basePrice" | "sanCount" | "sanPrice" | "wildcardCount" | "wildcardPrice" | "discount" | "total"
>;

/** Everything an Order keeps in state: the inputs (diff sees only these old outputs) and what the API said. */
export interface OrderState extends OrderInputs {
  orderNo: string;
  /** Absent for adopted orders: the API does not report the price of an existing order. */
  price?: OrderPriceState;
  certStatus: CertStatus;
  orderStatus?: OrderStatus;
  /** Absent until ApplySign succeeded: a partially created order. */
  requestId?: string;
  records: ValidationRecord[];
  installmentsCount?: number;
  paidAt?: string;
  /** ISO date the purchased term ends (payment date + months): the renewal clock. */
  termEndsAt?: string;
  /** True when the order was adopted (`adoptOrderNo` or the journal), not bought by this resource. */
  adopted?: boolean;
}

/** Inputs whose change needs a new purchase. */
export const REPLACE_KEYS = [
  "productCode",
  "domain",
  "sanDomains",
  "wildcardDomains",
  "months",
  "signatureAlgorithm",
  "keySpec",
  "hashAlgorithm",
  "paymentMethod",
  "companyId",
  "companyInfo",
  "customCsr",
  "couponCode",
] as const satisfies readonly (keyof OrderInputs)[];

/** Inputs changed in place through ChangeVertificationMethod. */
export const UPDATE_KEYS = ["verificationMethod", "emailSuffix"] as const satisfies readonly (keyof OrderInputs)[];
