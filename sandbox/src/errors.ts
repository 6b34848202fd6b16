/**
 * An error the Partner API reports in its envelope. `field` names the request
 * field at fault (sent as `data.field`, a sandbox addition the real service
 * need not send), so callers can point at their input.
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly code: number;
  readonly field: string | undefined;
  readonly data: Record<string, unknown> | undefined;

  constructor(code: number, message: string, opts: { field?: string; data?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.code = code;
    this.field = opts.field;
    this.data = opts.data;
  }

  /** The envelope's `data`: the extra data plus `field` when known; `{}` when neither (the envelope's data is an object). */
  envelopeData(): Record<string, unknown> {
    return { ...(this.field === undefined ? {} : { field: this.field }), ...this.data };
  }
}

// One constructor per code the sandbox answers with, as Pebble's problem
// constructors: a call site says which failure it is, and the code follows.

const named = (field: string | undefined) => (field === undefined ? {} : { field });

/** 400: the request is malformed or breaks a rule of the specification; `field` the one at fault. */
export const badRequest = (field: string | undefined, message: string, cause?: unknown): ApiError =>
  new ApiError(400, message, { ...named(field), ...(cause === undefined ? {} : { cause }) });

/** 401: no API key, or one the service does not know. */
export const unauthorized = (message: string): ApiError => new ApiError(401, message, { field: "apikey" });

/** 403: the key is known but may not be used (account banned, key disabled or expired). */
export const forbidden = (message: string): ApiError => new ApiError(403, message);

/** 404: what the request names does not exist (for this account). */
export const notFound = (field: string | undefined, message: string): ApiError => new ApiError(404, message, named(field));

/** 405: a partner operation asked with another method than POST. */
export const methodNotAllowed = (message: string): ApiError => new ApiError(405, message);

/** 429: asked again inside a cooldown; `retry_after` (seconds) says when to ask. */
export const tooManyRequests = (message: string, data: { retry_after: number } & Record<string, unknown>): ApiError => new ApiError(429, message, { data });

/** 500: the sandbox itself is misconfigured. */
export const internalError = (message: string): ApiError => new ApiError(500, message);
