/**
 * Keys that name an object's prototype machinery. A request body may not use
 * them at any depth: written into a plain object, `__proto__[apikey]=x` would
 * give every object in the process an inherited `apikey` (prototype
 * pollution), a caller the service cannot tell apart from an authenticated one.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/**
 * The path of the first reserved name anywhere in parsed JSON, or undefined.
 * `JSON.parse` itself makes `"__proto__"` an own key rather than a prototype,
 * but code that copies the value with `Object.assign` or `obj[key] = …` would
 * not, so JSON gets the same rule as forms.
 *
 * @example reservedKeyPath({ a: { constructor: 1 } }) === "a.constructor"
 */
export function reservedKeyPath(value: unknown, path = ""): string | undefined {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const hit = reservedKeyPath(item, `${path}[${i}]`);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  for (const key of Object.keys(value)) {
    const where = path === "" ? key : `${path}.${key}`;
    if (RESERVED_KEYS.has(key)) return where;
    const hit = reservedKeyPath((value as Record<string, unknown>)[key], where);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** The refusal, worded once for every body reader. @example reservedKeyMessage("a.__proto__") */
export const reservedKeyMessage = (path: string): string =>
  `${JSON.stringify(path)} uses a reserved name (${[...RESERVED_KEYS].join(", ")}), which no field of the API has`;
