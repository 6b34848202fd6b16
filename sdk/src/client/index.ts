/**
 * The Partner API client: `PartnerClient`, its error type, its public types
 * and the API's allowed values (`vocabulary.ts`).
 *
 * @example
 * import { PartnerClient, PartnerApiError, CertStatus, VERIFICATION_METHODS } from "pulumi-certreseller";
 */
export * from "./vocabulary.js";
export * from "./types.js";
export * from "./errors.js";
export { PartnerClient } from "./partner-client.js";
export { OPERATIONS, type OperationSpec } from "./operations.js";
