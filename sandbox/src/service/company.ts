import { badRequest } from "../errors.js";
import type { CompanyInfo } from "../store/types.js";
import type { Body } from "./fields.js";

export const COMPANY_FIELDS = [
  "company_name", "registration_number", "country", "state", "city",
  "address", "postal_code", "contact_name", "contact_email", "contact_phone",
] as const satisfies ReadonlyArray<keyof CompanyInfo>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Company information for OV/EV: `company_info{...}`, a top-level `company{...}`,
 * or the members as top-level fields. Returns undefined when none is present;
 * throws naming the first missing or malformed member otherwise.
 */
export function readCompanyInfo(body: Body): CompanyInfo | undefined {
  for (const key of ["company_info", "company"]) {
    const v = body[key];
    // Some form clients send the object as its JSON text.
    if (typeof v === "string" && v.trim().startsWith("{")) {
      try {
        body = { ...body, [key]: JSON.parse(v) as unknown };
      } catch {
        throw badRequest(key, `${key} looks like a JSON object but does not parse`);
      }
    }
  }
  let source: Record<string, unknown> | undefined;
  let prefix = "";
  if (isObject(body.company_info)) {
    source = body.company_info;
    prefix = "company_info.";
  } else if (isObject(body.company)) {
    source = body.company;
    prefix = "company.";
  } else if (COMPANY_FIELDS.some((f) => body[f] !== undefined && body[f] !== "")) {
    source = body;
  } else if (body.company_info !== undefined && body.company_info !== "") {
    throw badRequest("company_info", "company_info must be an object of company members");
  }
  if (source === undefined) return undefined;
  const info = {} as Record<(typeof COMPANY_FIELDS)[number], string>;
  for (const f of COMPANY_FIELDS) {
    const v = source[f];
    if (v === undefined || v === null || (typeof v === "string" && v.trim() === "")) {
      throw badRequest(`${prefix}${f}`, `${prefix}${f} is required in the company information for OV/EV products`);
    }
    if (typeof v !== "string" && typeof v !== "number") throw badRequest(`${prefix}${f}`, `${prefix}${f} must be a string`);
    info[f] = String(v).trim();
  }
  info.country = info.country.toUpperCase();
  if (!/^[A-Z]{2}$/.test(info.country)) {
    throw badRequest(`${prefix}country`, `${prefix}country must be an ISO 3166 alpha-2 code such as "DE", got ${JSON.stringify(info.country)}`);
  }
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(info.contact_email)) {
    throw badRequest(`${prefix}contact_email`, `${prefix}contact_email must be an e-mail address`);
  }
  if (!/^\+?[\d\s().-]{5,}$/.test(info.contact_phone)) {
    throw badRequest(`${prefix}contact_phone`, `${prefix}contact_phone must be a telephone number (digits, spaces, + - ( ) .)`);
  }
  return info;
}
