import type { z } from "zod";
import { PartnerApiError, type PartnerErrorKind } from "./errors.js";
import type { Redactor } from "./redact.js";
import { envelope, errorData } from "./schemas/index.js";
import type { HttpResponse } from "./transport.js";
import type { PartnerOperation } from "./types.js";

const KIND_BY_CODE: Readonly<Record<number, PartnerErrorKind>> = {
  400: "invalid_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  429: "rate_limited",
};

const DESCRIPTION: Readonly<Partial<Record<PartnerErrorKind, string>>> = {
  invalid_request: "request refused",
  unauthorized: "invalid API key",
  forbidden: "access denied",
  not_found: "not found",
  method_not_allowed: "method not allowed",
  rate_limited: "rate limited",
  server: "server error",
};

/** Error kind for an API code or HTTP status; undocumented codes count as server errors. */
export function kindForCode(code: number): PartnerErrorKind {
  return KIND_BY_CODE[code] ?? "server";
}

/**
 * Reads one HTTP answer: the envelope, then `data` against the operation's
 * schema. The API code may come with HTTP 200 or with a matching HTTP status;
 * an error status without a JSON body (a proxy's 502) is still classified by
 * its status, not reported as malformed.
 */
export function interpretResponse<T>(
  operation: PartnerOperation,
  response: HttpResponse,
  schema: z.ZodType<T, unknown>,
  redactor: Redactor,
): T {
  const httpStatus = response.status;
  const headerRequestId = firstHeader(response.headers["x-request-id"]);
  // Every string the server supplies (message, field, ids) may echo the request: redact them all.
  const safe = (value: string | undefined) => (value === undefined ? undefined : redactor.text(value));
  const fail = (kind: PartnerErrorKind, detail: string, extra: Partial<ConstructorParameters<typeof PartnerApiError>[1]> = {}) => {
    const init = { kind, operation, httpStatus, requestId: headerRequestId, mayHaveReachedServer: true, ...extra };
    return new PartnerApiError(redactor.text(`${operation}: ${detail}`), {
      ...init,
      requestId: safe(init.requestId),
      field: safe(init.field),
      orderNo: safe(init.orderNo),
    });
  };

  let json: unknown;
  try {
    json = JSON.parse(response.text);
  } catch (cause) {
    throw httpStatus >= 400
      ? errorFromStatusOnly(fail, response, "with a body that is not JSON")
      : fail("malformed_response", `response is not JSON (HTTP ${httpStatus}, ${response.text.length} characters)`, {
          cause: redactor.error(cause),
        });
  }
  const parsedEnvelope = envelope.safeParse(json);
  if (!parsedEnvelope.success) {
    throw httpStatus >= 400
      ? errorFromStatusOnly(fail, response, "without the API envelope")
      : fail("malformed_response", `response is not the API envelope ({ code, message, data }): ${describeIssue(parsedEnvelope.error)}`, {
          field: issuePath(parsedEnvelope.error, ""),
          cause: redactor.error(parsedEnvelope.error),
        });
  }
  const { code, message, data, request_id } = parsedEnvelope.data;
  const requestId = headerRequestId ?? request_id ?? undefined;

  if (code !== 200 || httpStatus >= 400) {
    // An error code in the body wins; a 200 body under an error status is classified by the status.
    const effective = code !== 200 ? code : httpStatus;
    const kind = kindForCode(effective);
    const details = errorData.safeParse(data);
    const fields = details.success ? details.data : {};
    const serverText = message ? `: ${message}` : "";
    throw fail(kind, `${DESCRIPTION[kind] ?? kind} (API code ${code}, HTTP ${httpStatus})${serverText}`, {
      code: effective,
      requestId,
      field: fields.field,
      retryAfter: fields.retry_after ?? retryAfterHeader(response),
      cooldownSeconds: fields.cooldown_seconds,
      orderNo: fields.order_no,
    });
  }

  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const field = issuePath(parsed.error, "data");
    // For CreateOrder the account is already charged: keep the order number if it is readable at all.
    const orderNo = readOrderNo(data);
    throw fail("malformed_response", `response breaks the contract at ${field}: ${describeIssue(parsed.error)}`, {
      code,
      requestId,
      field,
      orderNo,
      cause: redactor.error(parsed.error),
    });
  }
  return parsed.data;
}

function errorFromStatusOnly(
  fail: (kind: PartnerErrorKind, detail: string, extra?: Partial<ConstructorParameters<typeof PartnerApiError>[1]>) => PartnerApiError,
  response: HttpResponse,
  how: string,
): PartnerApiError {
  const kind = kindForCode(response.status);
  return fail(kind, `${DESCRIPTION[kind] ?? kind} (HTTP ${response.status} ${how})`, {
    retryAfter: retryAfterHeader(response),
  });
}

/** HTTP `Retry-After` in seconds (429 and 503 use it); the HTTP-date form is ignored. */
function retryAfterHeader(response: HttpResponse): number | undefined {
  const value = firstHeader(response.headers["retry-after"]);
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function readOrderNo(data: unknown): string | undefined {
  const orderNo = (data as { order_no?: unknown } | null | undefined)?.order_no;
  return typeof orderNo === "string" && orderNo.length > 0 ? orderNo : undefined;
}

/** `data.products.items[0].price` from a zod issue path. */
function issuePath(error: z.ZodError, root: string): string {
  const path = error.issues[0]?.path ?? [];
  let out = root;
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out === "" ? "(root)" : out;
}

function describeIssue(error: z.ZodError): string {
  const [first] = error.issues;
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : "";
  return `${first?.message ?? "invalid"}${more}`;
}
