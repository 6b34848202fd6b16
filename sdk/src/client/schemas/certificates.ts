import type { CertStatus, HashAlgorithm, KeySpec, OrderStatus, SignatureAlgorithm, VerificationMethod } from "../vocabulary.js";
import { boolean, integer, list, listOf, map, nonEmptyText, nullable, object, openInteger, openText, optional, required, text } from "./read.js";
import { orderNames } from "./records.js";

// GetCertificateStatus and DownloadCertificate: the specification leaves
// both "not shown"; the fields are the service's documented ones. Reads:
// what a caller acts on is required, descriptive fields are optional.

/** Validation state of one name. */
export const domainStatus = object({
  domain: required(text),
  method: nullable(text),
  verified: required(boolean),
});

export const certificateStatus = object({
  orderNo: required(nonEmptyText),
  orderStatus: required(openInteger<OrderStatus>()),
  orderStatusLabel: optional(text),
  /** UUID of the certificate this status describes. */
  certId: nullable(text),
  certStatus: required(openInteger<CertStatus>()),
  certStatusLabel: optional(text),
  caStatus: nullable(integer),
  caStatusText: nullable(text),
  allDcvVerified: required(boolean),
  /** Elements that cannot be read are left out (and reported to `logger.warn`). */
  domainStatuses: list(domainStatus),
  serialNumber: nullable(text),
  startDate: nullable(text),
  endDate: nullable(text),
  requestId: nullable(text),
  certDownloaded: required(boolean),
  /** `ca` = asked upstream now, `local` = stored state. */
  source: required(text),
  /** ISO 8601 with offset. */
  checkedAt: required(text),
  cooldownSeconds: required(integer),
});

// An empty PEM means "none" (the private key of a custom-CSR order): read it as null.
const pemOrNull = map(text, (pem) => (pem === "" ? null : pem));

/** The PEM material of a certificate. `privateKey`/`key` are **secret**. */
export const certificateMaterial = object({
  /** Leaf + intermediates. */
  certificateChain: required(nonEmptyText),
  certificateLeaf: required(nonEmptyText),
  intermediateCertificate: required(text),
  /** Secret. `null` when the order used a custom CSR (the service sends an empty string). */
  privateKey: nullable(pemOrNull),
  /** `null` when the service sent none. */
  csr: nullable(pemOrNull),
  /** Same as `certificateChain`. */
  crt: optional(text),
  /** Same as `privateKey` (secret). */
  key: optional(text),
  /** Same as `intermediateCertificate`. */
  caBundle: optional(text),
});

export const certificateDownload = object({
  orderNo: required(nonEmptyText),
  orderStatus: optional(openInteger<OrderStatus>()),
  certId: required(nonEmptyText),
  certStatus: required(openInteger<CertStatus>()),
  installmentNo: optional(integer),
  installmentsCount: optional(integer),
  productName: optional(text),
  brandName: optional(text),
  ...orderNames(optional),
  domains: optional(listOf(text)),
  years: optional(integer),
  signatureAlgorithm: optional(openText<SignatureAlgorithm>()),
  hashAlgorithm: optional(openText<HashAlgorithm>()),
  keySpec: optional(openText<KeySpec>()),
  verificationMethod: optional(openText<VerificationMethod>()),
  serialNumber: required(nonEmptyText),
  fingerprintSha256: optional(text),
  issuedAt: optional(text),
  startDate: optional(text),
  endDate: optional(text),
  /** `YYYY-MM-DD`. */
  validFrom: optional(text),
  /** `YYYY-MM-DD`. */
  validTo: optional(text),
  certificate: required(certificateMaterial),
  hasCertificate: optional(boolean),
  hasPrivateKey: optional(boolean),
  downloadedAt: optional(text),
});
