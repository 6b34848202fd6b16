import type { IncomingMessage } from "node:http";
import type { CertificateAuthority } from "../../ca/index.js";
import type { FaultRegistry } from "../../faults/faults.js";
import type { ServiceContext } from "../../service/context.js";
import { parseMoney } from "../../util/money.js";
import { readRaw } from "../body.js";
import type { RequestLog } from "../request-log.js";
import { reservedKeyMessage, reservedKeyPath } from "../../util/reserved-keys.js";

export interface ManagementDeps {
  ctx: ServiceContext;
  faults: FaultRegistry;
  log: RequestLog;
  ca: CertificateAuthority;
}

/** A management failure: a plain HTTP status and `{ error }`. */
export class HttpError extends Error {
  override readonly name = "HttpError";
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** What a route answers; the dispatcher makes state durable, then sends it. */
export type Reply = { status: number; body: unknown } | { pem: string };

export const reply = (body: unknown, status = 200): Reply => ({ status, body });

/** One management request, pre-split for matching. */
export class Route {
  readonly method: string;
  readonly seg: string[];
  #body: Promise<Record<string, unknown>> | undefined;

  constructor(readonly req: IncomingMessage, readonly path: string) {
    this.method = req.method ?? "GET";
    this.seg = path.split("/").filter(Boolean).map(decodeURIComponent);
  }

  /** Method and path match; `null` matches any one segment. */
  is(method: string, ...parts: Array<string | null>): boolean {
    return method === this.method && parts.length === this.seg.length && parts.every((p, i) => p === null || p === this.seg[i]);
  }

  /** The JSON object body (`{}` when empty). */
  body(): Promise<Record<string, unknown>> {
    return (this.#body ??= readJson(this.req));
  }
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readRaw(req);
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new HttpError(400, `body is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new HttpError(400, "body must be a JSON object");
  const reserved = reservedKeyPath(parsed);
  if (reserved !== undefined) throw new HttpError(400, `body field ${reservedKeyMessage(reserved)}`);
  return parsed as Record<string, unknown>;
}

/** An amount in cents from a decimal string or number, or `dflt` when absent. */
export function moneyField(body: Record<string, unknown>, field: string, dflt: number): number {
  if (body[field] === undefined) return dflt;
  const cents = parseMoney(body[field]);
  if (cents === undefined) throw new HttpError(400, `${field} must be a non-negative amount with at most two decimals`);
  return cents;
}

export function stringField(body: Record<string, unknown>, field: string): string {
  const v = body[field];
  if (typeof v !== "string" || v.trim() === "") throw new HttpError(400, `${field} is required (a non-empty string)`);
  return v.trim();
}
