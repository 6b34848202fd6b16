/**
 * The nine Partner API operations, named as the service's paths name them.
 * The product list, status and download paths are `GetUserProduct`,
 * `GetCertificateStatus` and `DownloadCertificate`.
 *
 * @example
 * const op: PartnerOperation = "ChangeVertificationMethod";
 */
export type PartnerOperation =
  | "GetUserData"
  | "GetUserProduct"
  | "CreateOrder"
  | "ApplySign"
  | "GetRecord"
  | "ChangeVertificationMethod"
  | "CancelOrder"
  | "GetCertificateStatus"
  | "DownloadCertificate";

/**
 * How the client treats one operation.
 *
 * @example
 * OPERATIONS.CreateOrder.changesState === true
 */
export interface OperationSpec {
  /** Path below the base URL (trailing slash as documented). */
  readonly path: string;
  /**
   * True for operations that move money or change state. They are never
   * retried once a request may have reached the server (see retry.ts).
   */
  readonly changesState: boolean;
}

/**
 * Every operation, its documented path and whether it changes state.
 * `ChangeVertificationMethod` is spelled as the service spells it.
 *
 * @example
 * new URL(OPERATIONS.GetRecord.path, "https://partner.example.com/") // .../partner/GetRecord/
 */
export const OPERATIONS: { readonly [K in PartnerOperation]: OperationSpec } = {
  GetUserData: { path: "partner/GetUserData/", changesState: false },
  GetUserProduct: { path: "partner/GetUserProduct/", changesState: false },
  CreateOrder: { path: "partner/CreateOrder/", changesState: true },
  ApplySign: { path: "partner/ApplySign/", changesState: true },
  GetRecord: { path: "partner/GetRecord/", changesState: false },
  ChangeVertificationMethod: { path: "partner/ChangeVertificationMethod/", changesState: true },
  CancelOrder: { path: "partner/CancelOrder/", changesState: true },
  GetCertificateStatus: { path: "partner/GetCertificateStatus/", changesState: false },
  DownloadCertificate: { path: "partner/DownloadCertificate/", changesState: false },
};
