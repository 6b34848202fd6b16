/** A value the engine's struct encoding can carry. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * Copies `value` into plain JSON for the engine: object members that are
 * `undefined` are dropped. Anything else without a JSON form (a Buffer, a
 * function, a bigint, a class instance such as an Output) would crash the
 * provider host with "Unexpected struct type", far from the cause; here it
 * throws at once with the path of the bad member.
 */
export function toPlainJson(value: unknown, path = "outputs"): Json {
  if (value === null) return null;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`${path} is ${value}, which has no JSON form`);
      return value;
    case "object": {
      if (Array.isArray(value)) {
        return value.map((item, index) => {
          if (item === undefined) throw new TypeError(`${path}[${index}] is undefined`);
          return toPlainJson(item, `${path}[${index}]`);
        });
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        throw new TypeError(`${path} is a ${proto?.constructor?.name ?? "class instance"}, not plain JSON`);
      }
      const out: { [key: string]: Json } = {};
      for (const [key, member] of Object.entries(value)) {
        if (member === undefined) continue;
        out[key] = toPlainJson(member, `${path}.${key}`);
      }
      return out;
    }
    default:
      throw new TypeError(`${path} is a ${typeof value}, which has no JSON form`);
  }
}
