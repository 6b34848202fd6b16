const REDACTED = "[redacted]";

/**
 * Removes an API key from anything the client emits. A key is
 * `app_id:api_secret`; the whole key, the secret half and their URL- and
 * JSON-escaped forms are all replaced, because a server (or a library) may
 * echo a body or header back in an error.
 */
export class Redactor {
  readonly #needles: string[];

  constructor(apiKey: string) {
    const secret = apiKey.includes(":") ? apiKey.slice(apiKey.indexOf(":") + 1) : apiKey;
    const forms = [apiKey, secret].flatMap((s) => [s, encodeURIComponent(s), new URLSearchParams({ k: s }).toString().slice(2), JSON.stringify(s).slice(1, -1)]);
    // Longest first, so the whole key is replaced before its secret half.
    this.#needles = [...new Set(forms)].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  }

  /** The text with every form of the key replaced by `[redacted]`. */
  text(value: string): string {
    let out = value;
    for (const needle of this.#needles) if (out.includes(needle)) out = out.split(needle).join(REDACTED);
    return out;
  }

  /**
   * A copy of an error (name, message, code, stack, nested causes) with the
   * key removed, safe to attach as a `cause`. The original is not kept:
   * library errors may hold request options that contain the key.
   */
  error(value: unknown, depth = 0): unknown {
    if (!(value instanceof Error)) return value === undefined ? undefined : this.text(String(value));
    const copy = new Error(this.text(value.message));
    copy.name = value.name;
    copy.stack = value.stack === undefined ? undefined : this.text(value.stack);
    const code = (value as { code?: unknown }).code;
    if (typeof code === "string" || typeof code === "number") Object.assign(copy, { code });
    if (value.cause !== undefined && depth < 4) Object.assign(copy, { cause: this.error(value.cause, depth + 1) });
    if (value instanceof AggregateError && depth < 4) {
      Object.assign(copy, { errors: value.errors.map((e) => this.error(e, depth + 1)) });
    }
    return copy;
  }
}
