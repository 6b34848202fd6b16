import type { HashAlgorithm, KeySpec, MethodCode, SignatureAlgorithm } from "../catalogue/types.js";
import type { Cents } from "../util/money.js";

/** 0 banned, 1 normal, 2 awaiting e-mail check, 3 awaiting phone check. */
export type UserStatus = 0 | 1 | 2 | 3;

export interface AccountRecord {
  id: number;
  username: string;
  email: string;
  status: UserStatus;
  appId: string;
  /** Sealed with the store's secret box: the data dir never holds the secret in plaintext. */
  secretSealed: string;
  /** 1 active, 0 disabled. */
  keyStatus: 0 | 1;
  keyExpiresAt: string | null;
  balance: Cents;
  creditLimit: Cents;
  creditUsed: Cents;
  createdAt: number;
  lastUsedIp: string | null;
  lastUsedAt: number | null;
}

export type CertStatus = 0 | 1 | 2 | 3 | 4 | 5 | 6;
export type OrderStatus = 0 | 1 | 2 | 3 | 4;

/** What a record asks the customer to publish (or, for e-mail, to approve). */
export type RecordKind = "txt" | "cname" | "file" | "email";

/**
 * One name's validation record, as the sandbox keeps it; `service/records.ts`
 * renders it into the wire's dns_records / http_records / email_records.
 */
export interface ValidationRecord {
  /** The name validated: a wildcard is validated at its base name. */
  domain: string;
  /** `main` for the main domain, `san` for every other name (wildcards included). */
  type: "main" | "san";
  method: MethodCode;
  kind: RecordKind;
  /** DNS host label relative to `domain`, or the file name; empty for e-mail. */
  label: string;
  /** TXT value or CNAME target. */
  value?: string;
  /** File content. */
  content?: string;
  /** Approver address. */
  email?: string;
  verified: boolean;
  /** Sandbox ms when the name was validated; reuse for later installments counts from it. */
  verifiedAt?: number;
}

export interface IssuedMaterial {
  leafPem: string;
  intermediatePem: string;
  chainPem: string;
  /** Sealed; empty string when the order brought its own CSR. */
  privateKeySealed: string;
  csrPem: string;
  serialNumber: string;
  fingerprintSha256: string;
  notBefore: number;
  notAfter: number;
  issuedAt: number;
}

export interface CertificateRecord {
  certId: string;
  installmentNo: number;
  status: CertStatus;
  requestId: string | null;
  submittedAt: number | null;
  methodChangedAt: number | null;
  verificationMethod: MethodCode;
  records: ValidationRecord[];
  caStatus: number | null;
  caStatusText: string | null;
  issued: IssuedMaterial | null;
  downloaded: boolean;
}

/** `company_info` as spec 2.4 names its members (aliases already resolved). */
export interface CompanyInfo {
  company_name: string;
  country_code: string;
  contact_first: string;
  contact_last: string;
  email: string;
  registration_no?: string;
  country_name?: string;
  province_pinyin?: string;
  city_pinyin?: string;
  address?: string;
  postal_code?: string;
  phone?: string;
  contact_title?: string;
  id_number?: string;
}

export interface PriceBreakdown {
  basePrice: Cents;
  sanCount: number;
  sanPrice: Cents;
  wildcardCount: number;
  wildcardPrice: Cents;
  discount: Cents;
  total: Cents;
}

export interface RefundRecord {
  /** `refund_id`: unique among the sandbox's refunds. */
  id: number;
  mode: "direct" | "audit";
  status: 0 | 3;
  to: "balance" | "credit";
  amount: Cents;
  refundOrderNo: string | null;
  reason: string | null;
  upstream: { success: boolean; provider: string; message: string; upstreamCode: string; skipped: boolean };
  requestedAt: number;
  refundedAt: number | null;
}

export interface OrderRecord {
  orderNo: string;
  accountId: number;
  productId: number;
  productCode: string;
  domain: string;
  sanDomains: string[];
  wildcardDomains: string[];
  months: number;
  installmentsCount: number;
  signatureAlgorithm: Exclude<SignatureAlgorithm, "sm2">;
  keySpec: KeySpec;
  hashAlgorithm: HashAlgorithm;
  paymentMethod: "balance" | "credit";
  customCsr: string | null;
  companyId: number | null;
  company: CompanyInfo | null;
  remark: string | null;
  price: PriceBreakdown;
  orderStatus: OrderStatus;
  paidAt: number;
  createdAt: number;
  /** Installments created so far; the last one is the current certificate. */
  certificates: CertificateRecord[];
  refund: RefundRecord | null;
}

export interface PublishedDnsRecord {
  fqdn: string;
  type: "TXT" | "CNAME";
  value: string;
}

export interface PublishedFile {
  url: string;
  content: string;
}
