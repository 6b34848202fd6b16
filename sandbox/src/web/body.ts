import type { IncomingMessage } from "node:http";
import { badRequest, type ApiError } from "../errors.js";
import { RESERVED_KEYS, reservedKeyMessage, reservedKeyPath } from "../util/reserved-keys.js";

const MAX_BODY_BYTES = 1 << 20;

export async function readRaw(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw badRequest(undefined, `request body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const reservedKey = (path: string): ApiError => badRequest(path, `request body field ${reservedKeyMessage(path)}`);

/** A record with no prototype: no key of a body can reach Object.prototype through it. */
const bare = (): Record<string, unknown> => Object.create(null) as Record<string, unknown>;

/**
 * Form bodies as PHP reads them: a repeated key or `key[]` makes a list,
 * `key[member]=v` makes a nested object (`company_info[company_name]=...`).
 * Every object is prototype-free and the reserved names are refused (400).
 */
export function parseForm(text: string): Record<string, unknown> {
  const out = bare();
  const append = (target: Record<string, unknown>, key: string, value: string, forceList: boolean): void => {
    const existing = Object.hasOwn(target, key) ? target[key] : undefined;
    if (forceList) target[key] = Array.isArray(existing) ? [...existing, value] : existing === undefined ? [value] : [existing, value];
    else if (existing === undefined) target[key] = value;
    else target[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  };
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const m = /^([^[\]]+)((?:\[[^\]]*\])*)$/.exec(rawKey);
    const name = m === null || m[2] === "" ? rawKey : m[1]!;
    const parts = m === null || m[2] === "" ? [] : [...m[2]!.matchAll(/\[([^\]]*)\]/g)].map((x) => x[1]!);
    if ([name, ...parts].some((key) => RESERVED_KEYS.has(key))) throw reservedKey(rawKey);
    if (parts.length === 0) {
      append(out, rawKey, value, false);
      continue;
    }
    if (parts.length === 1 && parts[0] === "") {
      append(out, name, value, true);
      continue;
    }
    let target = out;
    let key = name;
    for (const part of parts) {
      if (part === "") break;
      const next = Object.hasOwn(target, key) ? target[key] : undefined;
      const obj = typeof next === "object" && next !== null && !Array.isArray(next) ? (next as Record<string, unknown>) : bare();
      target[key] = obj;
      target = obj;
      key = part;
    }
    append(target, key, value, parts[parts.length - 1] === "");
  }
  return out;
}

/** Parses a partner request body by its content type (form when absent, as the seed sends). */
export function parseBody(text: string, contentType: string | undefined): Record<string, unknown> {
  if (text.trim() === "") return bare();
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json" || (type === "" && text.trimStart().startsWith("{"))) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw badRequest(undefined, `request body is not valid JSON: ${(err as Error).message}`, err);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw badRequest(undefined, "request body must be a JSON object");
    }
    const reserved = reservedKeyPath(parsed);
    if (reserved !== undefined) throw reservedKey(reserved);
    return Object.assign(bare(), parsed);
  }
  if (type === "" || type === "application/x-www-form-urlencoded") return parseForm(text);
  throw badRequest(undefined, `unsupported Content-Type ${JSON.stringify(type)}; send application/x-www-form-urlencoded or application/json`);
}
