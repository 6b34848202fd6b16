// Response readers by operation: wire (snake_case) `data` in, public camelCase types out.
import type { PartnerOperation } from "../operations.js";
import { certificateDownload, certificateStatus } from "./certificates.js";
import { cancelOrderResult, createOrderResult } from "./orders.js";
import { productPage } from "./products.js";
import type { Reader } from "./read.js";
import { applySignResult, changeVerificationMethodResult, recordSet } from "./records.js";
import { userData } from "./user.js";

export const RESPONSE_READERS = {
  GetUserData: userData,
  GetUserProduct: productPage,
  CreateOrder: createOrderResult,
  ApplySign: applySignResult,
  GetRecord: recordSet,
  ChangeVertificationMethod: changeVerificationMethodResult,
  CancelOrder: cancelOrderResult,
  GetCertificateStatus: certificateStatus,
  DownloadCertificate: certificateDownload,
} as const satisfies Record<PartnerOperation, Reader<unknown>>;

export { envelope, errorData } from "./common.js";
export { ReadContext, WireFault, type Reader } from "./read.js";
