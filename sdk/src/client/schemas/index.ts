// Response schemas by operation: wire (snake_case) in, public camelCase types out.
import type { PartnerOperation } from "../types.js";
import { certificateDownloadSchema, certificateStatusSchema } from "./certificates.js";
import { cancelOrderResultSchema, createOrderResultSchema } from "./orders.js";
import { productPageSchema } from "./products.js";
import { userDataSchema } from "./user.js";
import { applySignResultSchema, changeVerificationMethodResultSchema, recordSetSchema } from "./validation.js";

export const RESPONSE_SCHEMAS = {
  GetUserData: userDataSchema,
  GetUserProduct: productPageSchema,
  CreateOrder: createOrderResultSchema,
  ApplySign: applySignResultSchema,
  GetRecord: recordSetSchema,
  ChangeVertificationMethod: changeVerificationMethodResultSchema,
  CancelOrder: cancelOrderResultSchema,
  GetCertificateStatus: certificateStatusSchema,
  DownloadCertificate: certificateDownloadSchema,
} as const satisfies Record<PartnerOperation, unknown>;

export { envelope, errorData } from "./common.js";
