import type { z } from "zod";
import { PartnerApiError, type PartnerApiErrorInit, type PartnerErrorKind } from "./errors.js";
import type { Redactor } from "./redact.js";
import { envelope, errorData, ReadContext, WireFault, type Reader } from "./schemas/index.js";
import type { HttpResponse } from "./transport.js";
import type { PartnerOperation } from "./operations.js";

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

/** Error kind for an API envelope `code`; codes the API does not document count as server errors. */
export function kindForCode(code: number): PartnerErrorKind {
  return KIND_BY_CODE[code] ?? "server";
}

/** A successful answer's data, and what tolerant reading left out of it. */
export interface ReadAnswer<T> {
  value: T;
  /** Wire paths and rules of elements skipped and fields left out. */
  warnings: string[];
}

type Fail = (kind: PartnerErrorKind, detail: string, extra?: Partial<PartnerApiErrorInit>) => PartnerApiError;

/**
 * Reads one HTTP answer: the envelope, then `data` with the operation's reader.
 *
 * Who said what decides the error's kind. Only the API's own envelope can
 * say "no such order" (code 404) or "refused" (code 400), under any HTTP
 * status. An HTTP error status without the envelope — a proxy's HTML 404 or
 * 502 page — is `http_error` (429 stays `rate_limited`: whoever says it, the
 * remedy is to wait). An HTTP 2xx answer that is not the envelope, or whose
 * data breaks the contract, is `malformed_response`.
 */
export function interpretResponse<T>(operation: PartnerOperation, response: HttpResponse, reader: Reader<T>, redactor: Redactor): ReadAnswer<T> {
  const httpStatus = response.status;
  const headerRequestId = firstHeader(response.headers["x-request-id"]);
  // Every string the server supplies (message, field, ids) may echo the request: redact them all.
  const safe = (value: string | undefined) => (value === undefined ? undefined : redactor.text(value));
  const fail: Fail = (kind, detail, extra = {}) => {
    const init: PartnerApiErrorInit = { kind, operation, httpStatus, requestId: headerRequestId, mayHaveReachedServer: true, ...extra };
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
      ? notTheApi(fail, response, "a body that is not JSON")
      : fail("malformed_response", `response is not JSON (HTTP ${httpStatus}, ${response.text.length} characters)`, {
          cause: redactor.error(cause),
        });
  }
  const parsedEnvelope = envelope.safeParse(json);
  if (!parsedEnvelope.success) {
    throw httpStatus >= 400
      ? notTheApi(fail, response, "JSON that is not the API envelope")
      : fail("malformed_response", `response is not the API envelope ({ code, message, data }): ${describeIssue(parsedEnvelope.error)}`, {
          field: zodPath(parsedEnvelope.error),
          cause: redactor.error(parsedEnvelope.error),
        });
  }
  const { code, message, data, request_id } = parsedEnvelope.data;
  const requestId = headerRequestId ?? request_id ?? undefined;
  const serverText = message ? `: ${message}` : "";

  if (code !== 200 && typeof message !== "string") {
    // The API's envelope always explains a failure (spec section 1: code,
    // message, data). A bare `{ "code": 404 }` or a gateway's
    // `{ "code": 404, "msg": ... }` is someone else's JSON, and "no such
    // order" from it would drop a paid order on no evidence.
    throw fail("http_error", `HTTP ${httpStatus} with JSON carrying code ${code} but no message: not the Partner API's envelope — it proves nothing about the request or the order`, {
      retryAfter: retryAfterHeader(response),
    });
  }
  if (code !== 200) {
    const kind = kindForCode(code);
    const details = errorData.safeParse(data);
    const fields = details.success ? details.data : {};
    throw fail(kind, `${DESCRIPTION[kind] ?? kind} (API code ${code}, HTTP ${httpStatus})${serverText}`, {
      code,
      requestId,
      field: fields.field,
      retryAfter: fields.retry_after ?? retryAfterHeader(response),
      cooldownSeconds: fields.cooldown_seconds,
      orderNo: fields.order_no,
    });
  }
  if (httpStatus >= 400) {
    // A success envelope under an error status: something between us and the API
    // changed the answer. Neither side can be trusted; keep the order number if any.
    throw fail("http_error", `HTTP ${httpStatus} carrying a success envelope (API code 200)${serverText}: the outcome is unknown`, {
      code,
      requestId,
      orderNo: readOrderNo(data),
      retryAfter: retryAfterHeader(response),
    });
  }

  const ctx = new ReadContext("data");
  try {
    return { value: reader(data, ctx), warnings: ctx.warnings };
  } catch (caught) {
    if (!(caught instanceof WireFault)) throw caught;
    throw fail("malformed_response", `response breaks the contract at ${caught.path}: ${caught.rule}`, {
      code,
      requestId,
      field: caught.path,
      // For CreateOrder the account may be charged: keep the order number if it is readable at all.
      orderNo: readOrderNo(data),
    });
  }
}

function notTheApi(fail: Fail, response: HttpResponse, what: string): PartnerApiError {
  if (response.status === 429) {
    return fail("rate_limited", `rate limited (HTTP 429 with ${what})`, { retryAfter: retryAfterHeader(response) });
  }
  return fail(
    "http_error",
    `HTTP ${response.status} with ${what}: an HTTP error page, not the Partner API — it proves nothing about the request or the order`,
    { retryAfter: retryAfterHeader(response) },
  );
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

/** `code` from a zod issue path of the envelope. */
function zodPath(error: z.ZodError): string {
  const path = error.issues[0]?.path ?? [];
  return path.length === 0 ? "(root)" : path.map(String).join(".");
}

function describeIssue(error: z.ZodError): string {
  const [first] = error.issues;
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : "";
  return `${first?.message ?? "invalid"}${more}`;
}
