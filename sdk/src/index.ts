export * from "./client/index.js";
export { Order, type OrderArgs } from "./resources/order.js";
export type { OrderPriceState } from "./resources/order/types.js";
export * as testing from "./testing/index.js";
export { Validation, type ValidationArgs, type OrderLike, type DomainValidationRecord, type DnsValidationRecord, type FileValidationRecord } from "./resources/validation.js";
export { Certificate, type CertificateArgs } from "./resources/certificate.js";
export {
  ValidatedCertificate,
  type ValidatedCertificateArgs,
  type ValidationRecordToPublish,
} from "./resources/validated-certificate.js";
export * from "./functions/index.js";
