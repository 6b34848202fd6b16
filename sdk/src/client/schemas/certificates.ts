import type { CertStatus, HashAlgorithm, KeySpec, OrderStatus, SignatureAlgorithm, VerificationMethod } from "../vocabulary.js";
import { boolean, integer, list, listOf, map, nonEmptyText, nullable, object, openInteger, openText, optional, required, text } from "./read.js";

// GetCertificateStatus and DownloadCertificate: the specification leaves
// both "not shown"; the fields are the service's documented ones. Reads:
// what a caller acts on is required, descriptive fields are optional.

/** Validation state of one name. */
export const domainStatus = object({
  domain: required("domain", text),
  method: nullable("method", text),
  verified: required("verified", boolean),
});

export const certificateStatus = object({
  orderNo: required("order_no", nonEmptyText),
  orderStatus: required("order_status", openInteger<OrderStatus>()),
  orderStatusLabel: optional("order_status_label", text),
  /** UUID of the certificate this status describes. */
  certId: nullable("cert_id", text),
  certStatus: required("cert_status", openInteger<CertStatus>()),
  certStatusLabel: optional("cert_status_label", text),
  caStatus: nullable("ca_status", integer),
  caStatusText: nullable("ca_status_text", text),
  allDcvVerified: required("all_dcv_verified", boolean),
  /** Elements that cannot be read are left out (and reported to `logger.warn`). */
  domainStatuses: list("domain_statuses", domainStatus),
  serialNumber: nullable("serial_number", text),
  startDate: nullable("start_date", text),
  endDate: nullable("end_date", text),
  requestId: nullable("request_id", text),
  certDownloaded: required("cert_downloaded", boolean),
  /** `ca` = asked upstream now, `local` = stored state. */
  source: required("source", text),
  /** ISO 8601 with offset. */
  checkedAt: required("checked_at", text),
  cooldownSeconds: required("cooldown_seconds", integer),
});

// An empty PEM means "none" (the private key of a custom-CSR order): read it as null.
const pemOrNull = map(text, (pem) => (pem === "" ? null : pem));

/** The PEM material of a certificate. `privateKey`/`key` are **secret**. */
export const certificateMaterial = object({
  /** Leaf + intermediates. */
  certificateChain: required("certificate_chain", nonEmptyText),
  certificateLeaf: required("certificate_leaf", nonEmptyText),
  intermediateCertificate: required("intermediate_certificate", text),
  /** Secret. `null` when the order used a custom CSR (the service sends an empty string). */
  privateKey: nullable("private_key", pemOrNull),
  /** `null` when the service sent none. */
  csr: nullable("csr", pemOrNull),
  /** Same as `certificateChain`. */
  crt: optional("crt", text),
  /** Same as `privateKey` (secret). */
  key: optional("key", text),
  /** Same as `intermediateCertificate`. */
  caBundle: optional("ca_bundle", text),
});

export const certificateDownload = object({
  orderNo: required("order_no", nonEmptyText),
  orderStatus: optional("order_status", openInteger<OrderStatus>()),
  certId: required("cert_id", nonEmptyText),
  certStatus: required("cert_status", openInteger<CertStatus>()),
  installmentNo: optional("installment_no", integer),
  installmentsCount: optional("installments_count", integer),
  productName: optional("product_name", text),
  brandName: optional("brand_name", text),
  mainDomain: optional("main_domain", text),
  /** The API spells it `sans_domains`. */
  sansDomains: optional("sans_domains", listOf(text)),
  wildcardDomains: optional("wildcard_domains", listOf(text)),
  domains: optional("domains", listOf(text)),
  years: optional("years", integer),
  signatureAlgorithm: optional("signature_algorithm", openText<SignatureAlgorithm>()),
  hashAlgorithm: optional("hash_algorithm", openText<HashAlgorithm>()),
  keySpec: optional("key_spec", openText<KeySpec>()),
  verificationMethod: optional("verification_method", openText<VerificationMethod>()),
  serialNumber: required("serial_number", nonEmptyText),
  fingerprintSha256: optional("fingerprint_sha256", text),
  issuedAt: optional("issued_at", text),
  startDate: optional("start_date", text),
  endDate: optional("end_date", text),
  /** `YYYY-MM-DD`. */
  validFrom: optional("valid_from", text),
  /** `YYYY-MM-DD`. */
  validTo: optional("valid_to", text),
  certificate: required("certificate", certificateMaterial),
  hasCertificate: optional("has_certificate", boolean),
  hasPrivateKey: optional("has_private_key", boolean),
  downloadedAt: optional("downloaded_at", text),
});
