import { badRequest } from "../errors.js";
import type { CompanyInfo } from "../store/types.js";
import { isAbsent, type Body } from "./fields.js";
import { reservedKeyMessage, reservedKeyPath } from "../util/reserved-keys.js";

type Member = keyof CompanyInfo;

/** Spec 2.4: the members every company must have. */
const REQUIRED: readonly Member[] = ["company_name", "country_code", "contact_first", "contact_last", "email"];
const OPTIONAL: readonly Member[] = [
  "registration_no", "country_name", "province_pinyin", "city_pinyin", "address", "postal_code", "phone", "contact_title", "id_number",
];
/** Spec 2.4's accepted aliases, alias → member. */
const ALIASES: Readonly<Record<string, Member>> = { registration_number: "registration_no", province: "province_pinyin", city: "city_pinyin" };
const ALL_NAMES = [...REQUIRED, ...OPTIONAL, ...Object.keys(ALIASES)];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Some form clients send the object as its JSON text. */
function parsedObject(body: Body, key: string): unknown {
  const v = body[key];
  if (typeof v !== "string" || !v.trim().startsWith("{")) return v;
  let parsed: unknown;
  try {
    parsed = JSON.parse(v) as unknown;
  } catch (cause) {
    throw badRequest(key, `${key} looks like a JSON object but does not parse`, cause);
  }
  const reserved = reservedKeyPath(parsed, key);
  if (reserved !== undefined) throw badRequest(key, reservedKeyMessage(reserved));
  return parsed;
}

/** Where the company members are: `company_info{}`, `company{}`, or top-level fields (spec 2.4, in that preference). */
function locate(body: Body): { source: Record<string, unknown>; prefix: string } | undefined {
  for (const key of ["company_info", "company"]) {
    const v = parsedObject(body, key);
    if (isObject(v)) return { source: v, prefix: `${key}.` };
    if (!isAbsent(v)) throw badRequest(key, `${key} must be an object of company members (spec 2.4)`);
  }
  if (ALL_NAMES.some((f) => !isAbsent(body[f]))) return { source: body, prefix: "" };
  return undefined;
}

function text(source: Record<string, unknown>, name: string, field: string): string | undefined {
  const v = source[name];
  if (isAbsent(v)) return undefined;
  if (typeof v !== "string" && typeof v !== "number") throw badRequest(field, `${field} must be a string`);
  return String(v).trim();
}

/**
 * Company information for OV/EV (spec 2.4): `company_info{...}`, a `company{...}`
 * object, or the members as top-level fields; aliases `registration_number`,
 * `province`, `city`. Returns undefined when none is present; throws naming
 * the first missing or malformed member otherwise.
 */
export function readCompanyInfo(body: Body): CompanyInfo | undefined {
  const found = locate(body);
  if (found === undefined) return undefined;
  const { source, prefix } = found;
  const info: Partial<Record<Member, string>> = {};
  for (const m of [...REQUIRED, ...OPTIONAL]) {
    const v = text(source, m, `${prefix}${m}`);
    if (v !== undefined) info[m] = v;
  }
  for (const [alias, m] of Object.entries(ALIASES)) {
    if (info[m] !== undefined) continue;
    const v = text(source, alias, `${prefix}${alias}`);
    if (v !== undefined) info[m] = v;
  }
  for (const m of REQUIRED) {
    if (info[m] === undefined) throw badRequest(`${prefix}${m}`, `${prefix}${m} is required in the company information for OV/EV products`);
  }
  info.country_code = info.country_code!.toUpperCase();
  if (!/^[A-Z]{2}$/.test(info.country_code)) {
    throw badRequest(`${prefix}country_code`, `${prefix}country_code must be a two-letter country/region code such as "DE", got ${JSON.stringify(info.country_code)}`);
  }
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(info.email!)) {
    throw badRequest(`${prefix}email`, `${prefix}email must be an e-mail address`);
  }
  return info as CompanyInfo;
}
