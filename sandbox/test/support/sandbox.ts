import { ManagementClient } from "../../../tests/support/sandbox-management.js";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../src/index.js";

export interface Envelope<T = any> {
  code: number;
  message: string;
  data: T;
}

export interface CallOptions {
  key?: string | null;
  placement?: "body" | "header" | "bearer";
  encoding?: "json" | "form";
  path?: string;
  method?: string;
}

/** Encodes a body the way a PHP form client would: arrays as `k[]`, objects as `k[member]`. */
export function formEncode(body: Record<string, unknown>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) {
    if (Array.isArray(v)) for (const item of v) p.append(`${k}[]`, String(item));
    else if (typeof v === "object" && v !== null) for (const [m, mv] of Object.entries(v)) p.append(`${k}[${m}]`, String(mv));
    else if (v !== undefined) p.append(k, String(v));
  }
  return p.toString();
}

export async function rawCall(sb: RunningSandbox, op: string, body: Record<string, unknown> = {}, opts: CallOptions = {}): Promise<Response> {
  const key = opts.key === undefined ? sb.accounts[0]!.apiKey : opts.key;
  const placement = opts.placement ?? "body";
  const headers: Record<string, string> = {};
  const payload = { ...body };
  if (key !== null) {
    if (placement === "body") payload.apikey = key;
    else if (placement === "header") headers["x-api-key"] = key;
    else headers.authorization = `Bearer ${key}`;
  }
  const encoding = opts.encoding ?? "json";
  headers["content-type"] = encoding === "json" ? "application/json" : "application/x-www-form-urlencoded";
  const method = opts.method ?? "POST";
  return fetch(`${sb.url}${opts.path ?? `/partner/${op}/`}`, {
    method,
    headers,
    ...(method === "GET" || method === "HEAD" ? {} : { body: encoding === "json" ? JSON.stringify(payload) : formEncode(payload) }),
  });
}

export async function call<T = any>(sb: RunningSandbox, op: string, body: Record<string, unknown> = {}, opts: CallOptions = {}): Promise<Envelope<T>> {
  const res = await rawCall(sb, op, body, opts);
  return (await res.json()) as Envelope<T>;
}

/** Calls and insists on success, returning `data`. */
export async function ok<T = any>(sb: RunningSandbox, op: string, body: Record<string, unknown> = {}, opts: CallOptions = {}): Promise<T> {
  const env = await call<T>(sb, op, body, opts);
  if (env.code !== 200) throw new Error(`${op} answered ${env.code}: ${env.message}`);
  return env.data;
}

/** A management API call, its answer as sent (status and body, whatever the status): the shared client's `request`. */
export function mgmt<T = any>(sb: RunningSandbox, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  return ManagementClient.of(sb).request<T>(method, path, body);
}

export async function withSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ statusCooldownSeconds: 0, ...opts });
}

export const DV_MULTI = { product_code: "sandbox-dv-multi", domain: "example.com", san_domains: ["www.example.com"] };

/** Spec 2.4's required members plus a few optional ones. */
export const COMPANY = {
  company_name: "Acme Widgets GmbH", country_code: "DE", contact_first: "Admin", contact_last: "Ada", email: "ada@acme.test",
  registration_no: "HRB 12345", province_pinyin: "Berlin", city_pinyin: "Berlin", address: "Unter den Linden 1",
  postal_code: "10117", phone: "+49 30 1234567",
};
