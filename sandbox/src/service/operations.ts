import { getUserData, getUserProduct } from "./account-view.js";
import { cancelOrder } from "./cancel-order.js";
import { downloadCertificate, getCertificateStatus } from "./certificate-ops.js";
import type { OperationRequest, ServiceContext } from "./context.js";
import { createOrder } from "./create-order.js";
import { applySign, changeVerificationMethod, getRecord } from "./validation-ops.js";

export const OPERATION_NAMES = [
  "GetUserData", "GetUserProduct", "CreateOrder", "ApplySign", "GetRecord",
  "ChangeVertificationMethod", "CancelOrder", "GetCertificateStatus", "DownloadCertificate",
] as const;

export type OperationName = (typeof OPERATION_NAMES)[number];

export type Operation = (ctx: ServiceContext, req: OperationRequest) => Promise<Record<string, unknown>>;

export const OPERATIONS: Record<OperationName, Operation> = {
  GetUserData: getUserData,
  GetUserProduct: getUserProduct,
  CreateOrder: createOrder,
  ApplySign: applySign,
  GetRecord: getRecord,
  ChangeVertificationMethod: changeVerificationMethod,
  CancelOrder: cancelOrder,
  GetCertificateStatus: getCertificateStatus,
  DownloadCertificate: downloadCertificate,
};

export function isOperationName(name: string): name is OperationName {
  return (OPERATION_NAMES as readonly string[]).includes(name);
}
