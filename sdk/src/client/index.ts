/**
 * The Partner API client: `PartnerClient`, its error type and its public types.
 *
 * @example
 * import { PartnerClient, PartnerApiError, CertStatus } from "pulumi-certreseller";
 */
export * from "./types.js";
export * from "./errors.js";
export { PartnerClient } from "./partner-client.js";
export { OPERATIONS, type OperationSpec } from "./operations.js";
