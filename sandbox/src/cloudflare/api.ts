/**
 * Cloudflare's API v4 for DNS records, under `/client/v4`: every answer is
 * the v4 envelope `{ success, errors, messages, result[, result_info] }`,
 * the caller authenticates with `Authorization: Bearer <token>`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "../web/envelope.js";
import { readRaw } from "../web/body.js";
import { CloudflareError, type CloudflareDns, type CloudflareRecord, type RecordInput } from "./dns.js";

export const CLOUDFLARE_API_PREFIX = "/client/v4";

/** One request to the Cloudflare API, as the management API lists them (never the token). */
export interface CloudflareRequestEntry {
  at: string;
  method: string;
  path: string;
  status: number;
  /** The first error code when refused, else null. */
  code: number | null;
}

export class CloudflareRequestLog {
  #entries: CloudflareRequestEntry[] = [];
  add(entry: CloudflareRequestEntry): void {
    this.#entries.push(entry);
    if (this.#entries.length > 10_000) this.#entries.shift();
  }
  list(): CloudflareRequestEntry[] {
    return [...this.#entries];
  }
  clear(): void {
    this.#entries = [];
  }
}

export const isCloudflarePath = (pathname: string): boolean => pathname === CLOUDFLARE_API_PREFIX || pathname.startsWith(`${CLOUDFLARE_API_PREFIX}/`);

/** The record as the API shows it. */
export function renderRecord(r: CloudflareRecord): Record<string, unknown> {
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    content: r.content,
    proxiable: r.type === "A" || r.type === "AAAA" || r.type === "CNAME",
    proxied: r.proxied,
    ttl: r.ttl,
    comment: r.comment,
    tags: r.tags,
    settings: {},
    meta: {},
    created_on: r.createdOn,
    modified_on: r.modifiedOn,
  };
}

const ok = (result: unknown, extra: Record<string, unknown> = {}) => ({ success: true, errors: [], messages: [], result, ...extra });
const failed = (errors: Array<{ code: number; message: string }>) => ({ success: false, errors, messages: [], result: null });

export async function handleCloudflare(dns: CloudflareDns, log: CloudflareRequestLog, now: () => Date, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const method = req.method ?? "GET";
  let status = 200;
  let body: unknown;
  try {
    ({ status, body } = await route(dns, now, req, method, new URL(req.url ?? "/", "http://sandbox"), pathname.slice(CLOUDFLARE_API_PREFIX.length)));
  } catch (err) {
    if (!(err instanceof CloudflareError)) throw err;
    status = err.status;
    body = failed(err.errors);
  }
  log.add({ at: now().toISOString(), method, path: pathname, status, code: (body as { errors: Array<{ code: number }> }).errors[0]?.code ?? null });
  sendJson(res, status, body);
}

async function route(dns: CloudflareDns, now: () => Date, req: IncomingMessage, method: string, url: URL, path: string): Promise<{ status: number; body: unknown }> {
  const m = /^\/zones\/([^/]+)\/dns_records(?:\/([^/]+))?\/?$/.exec(path);
  if (m === null) {
    req.resume();
    throw new CloudflareError(400, [
      { code: 7003, message: `Could not route to ${path}, perhaps your object identifier is invalid?` },
      { code: 7000, message: "No route for that URI" },
    ]);
  }
  const [, zoneId, recordId] = m as unknown as [string, string, string | undefined];
  const zone = dns.authorize(decodeURIComponent(zoneId), bearer(req));
  if (recordId === undefined) {
    if (method === "GET") {
      req.resume();
      const q = url.searchParams;
      const filter = {
        ...(param(q, "name") === undefined ? {} : { name: param(q, "name")! }),
        ...(q.get("type") === null ? {} : { type: q.get("type")! }),
        ...(param(q, "content") === undefined ? {} : { content: param(q, "content")! }),
      };
      const all = dns.list(zone, filter);
      const perPage = clamp(Number(q.get("per_page") ?? 100), 5, 5_000_000);
      const page = Math.max(1, Math.floor(Number(q.get("page") ?? 1)) || 1);
      const slice = all.slice((page - 1) * perPage, page * perPage);
      return {
        status: 200,
        body: ok(slice.map(renderRecord), { result_info: { page, per_page: perPage, count: slice.length, total_count: all.length, total_pages: Math.max(1, Math.ceil(all.length / perPage)) } }),
      };
    }
    if (method === "POST") return { status: 200, body: ok(renderRecord(dns.create(zone, await jsonBody(req), now()))) };
  } else {
    const id = decodeURIComponent(recordId);
    if (method === "GET") {
      req.resume();
      return { status: 200, body: ok(renderRecord(dns.get(zone, id))) };
    }
    if (method === "PUT" || method === "PATCH") {
      return { status: 200, body: ok(renderRecord(dns.update(zone, id, await jsonBody(req), method === "PUT" ? "overwrite" : "edit", now()))) };
    }
    if (method === "DELETE") {
      req.resume();
      return { status: 200, body: ok({ id: dns.delete(zone, id) }) };
    }
  }
  req.resume();
  throw new CloudflareError(405, [{ code: 10405, message: `Method ${method} not allowed for this endpoint` }]);
}

/** `name=` or its exact form `name.exact=` (the documented filters). */
function param(q: URLSearchParams, field: string): string | undefined {
  return q.get(`${field}.exact`) ?? q.get(field) ?? undefined;
}

const clamp = (n: number, lo: number, hi: number): number => (Number.isFinite(n) ? Math.min(hi, Math.max(lo, Math.floor(n))) : lo);

function bearer(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (m === null) throw new CloudflareError(400, [{ code: 6003, message: "Invalid request headers" }, { code: 6111, message: "Invalid format for Authorization header" }]);
  return m[1];
}

async function jsonBody(req: IncomingMessage): Promise<RecordInput> {
  const text = await readRaw(req);
  let parsed: unknown;
  try {
    parsed = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw new CloudflareError(400, [{ code: 9207, message: "Request body is invalid." }]);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new CloudflareError(400, [{ code: 9207, message: "Request body is invalid." }]);
  return Object.fromEntries(Object.entries(parsed).filter(([k]) => k !== "__proto__" && k !== "constructor" && k !== "prototype")) as RecordInput;
}
