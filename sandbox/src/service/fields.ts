import { badRequest } from "../errors.js";

export type Body = Record<string, unknown>;

/**
 * "All fields except apikey can be sent empty" (spec 4.3): an empty or blank
 * field counts as absent, so a client may send every field every time.
 */
export function isAbsent(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === "string" && v.trim() === "");
}

/** The first present (non-empty) field among the aliases, with the alias used. */
export function pick(body: Body, ...names: string[]): { name: string; value: unknown } | undefined {
  for (const name of names) {
    const v = body[name];
    if (!isAbsent(v)) return { name, value: v };
  }
  return undefined;
}

export function optionalString(body: Body, ...names: string[]): string | undefined {
  const hit = pick(body, ...names);
  if (hit === undefined) return undefined;
  if (typeof hit.value === "number" || typeof hit.value === "boolean") return String(hit.value);
  if (typeof hit.value !== "string") throw badRequest(hit.name, `${hit.name} must be a string`);
  return hit.value.trim();
}

export function requiredString(body: Body, ...names: string[]): string {
  const v = optionalString(body, ...names);
  if (v === undefined || v === "") throw badRequest(names[0], `${names[0]} is required`);
  return v;
}

export function optionalInt(body: Body, ...names: string[]): number | undefined {
  const hit = pick(body, ...names);
  if (hit === undefined) return undefined;
  const n = typeof hit.value === "number" ? hit.value : typeof hit.value === "string" ? Number(hit.value.trim()) : NaN;
  if (!Number.isInteger(n)) throw badRequest(hit.name, `${hit.name} must be an integer, got ${JSON.stringify(hit.value)}`);
  return n;
}

/**
 * A list field: a JSON array, repeated form keys, one comma-separated
 * string, or a JSON array as text. Empty entries are dropped.
 */
export function stringList(body: Body, ...names: string[]): { name: string; values: string[] } {
  const hit = pick(body, ...names);
  if (hit === undefined) return { name: names[0]!, values: [] };
  let value = hit.value;
  // Some form clients send a list as its JSON text.
  if (typeof value === "string" && value.trim().startsWith("[")) {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw badRequest(hit.name, `${hit.name} looks like a JSON array but does not parse`);
    }
  }
  const raw = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [value];
  const values: string[] = [];
  for (const item of raw) {
    if (typeof item !== "string") throw badRequest(hit.name, `${hit.name} must be a list of strings`);
    if (item.trim() !== "") values.push(item.trim());
  }
  return { name: hit.name, values };
}

export function oneOf<T extends string>(field: string, value: string, allowed: readonly T[], context = ""): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw badRequest(field, `${field} ${JSON.stringify(value)} is not supported${context}; allowed: ${allowed.join(", ")}`);
  }
  return value as T;
}
