import { isPartnerApiError } from "./errors.js";

/**
 * One line for an error in the Order's messages: operation, kind, API code
 * and text for a Partner API error, else the error's message.
 *
 * @example
 * describeError(err) // "CreateOrder invalid_request 400: CreateOrder: request refused (API code 400, HTTP 200): insufficient balance"
 */
export function describeError(error: unknown): string {
  if (isPartnerApiError(error)) return `${error.operation} ${error.kind}${error.code ? ` ${error.code}` : ""}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
