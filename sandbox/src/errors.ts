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

export const badRequest = (field: string | undefined, message: string): ApiError =>
  new ApiError(400, message, field === undefined ? {} : { field });
