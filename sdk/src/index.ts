export * from "./client/index.js";
export { Order, type OrderArgs } from "./resources/order/resource.js";
export type { OrderPriceState } from "./resources/order/state.js";
export * as testing from "./testing/index.js";
export { Validation, type ValidationArgs, type OrderLike, type DomainValidationRecord, type DnsValidationRecord, type FileValidationRecord } from "./resources/validation/resource.js";
export { Certificate, type CertificateArgs } from "./resources/certificate/resource.js";
export {
  ValidatedCertificate,
  type ValidatedCertificateArgs,
  type ValidationRecordToPublish,
} from "./resources/validated-certificate/resource.js";
export { Rfc2136Record, type Rfc2136RecordArgs } from "./resources/rfc2136-record/resource.js";
export * from "./functions/index.js";
