/**
 * One request field on the wire: a scalar, a list (repeated key in forms) or
 * a flat nested object (`company_info[company_name]=…` in forms).
 */
export type WireValue = string | number | readonly string[] | { readonly [key: string]: string };

/** Request fields in wire (snake_case) names; `undefined` fields are not sent. */
export type WireFields = { readonly [key: string]: WireValue | undefined };

/**
 * The specification's name of a camelCase field, requested or answered:
 * snake_case (`orderNo` → `order_no`). A field it names otherwise declares
 * its own name where it is declared.
 */
export function wireName(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A request body ready to send. */
export interface EncodedBody {
  contentType: string;
  body: string;
}

/**
 * Encodes fields as `application/x-www-form-urlencoded`, the API's native
 * form: arrays as repeated keys (`san_domains=a&san_domains=b`) and nested
 * objects in bracket notation (`company_info[company_name]=Acme`).
 */
export function encodeForm(fields: WireFields): EncodedBody {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (typeof value === "string" || typeof value === "number") params.append(key, String(value));
    else if (isList(value)) for (const item of value) params.append(key, item);
    else for (const [member, memberValue] of Object.entries(value)) params.append(`${key}[${member}]`, memberValue);
  }
  return { contentType: "application/x-www-form-urlencoded", body: params.toString() };
}

/** Encodes fields as a JSON object (arrays and nested objects natively). */
export function encodeJson(fields: WireFields): EncodedBody {
  const object: Record<string, WireValue> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) object[key] = value;
  return { contentType: "application/json", body: JSON.stringify(object) };
}

function isList(value: WireValue): value is readonly string[] {
  return Array.isArray(value);
}
