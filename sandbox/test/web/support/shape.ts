import { expect } from "vitest";

/**
 * A wire shape: each key maps to a type, a nested shape, or a one-element
 * array holding the shape of every element. Types: "string", "integer",
 * "number" (money: any JSON number), "boolean", "object" (any object), with
 * "|null" allowed where the reference says a field may be null.
 */
export type Shape = { [key: string]: string | Shape | [Shape] };

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function matches(v: unknown, type: string): boolean {
  return type.split("|").some((t) => {
    const actual = typeOf(v);
    if (t === "number") return actual === "number" || actual === "integer";
    if (t === "string[]") return Array.isArray(v) && v.every((x) => typeof x === "string");
    return actual === t;
  });
}

/** Collects every difference between `value` and `shape`: missing keys, extra keys, wrong types. */
export function shapeErrors(value: unknown, shape: Shape, path = "data"): string[] {
  if (typeOf(value) !== "object") return [`${path}: expected an object, got ${typeOf(value)}`];
  const obj = value as Record<string, unknown>;
  const errors: string[] = [];
  for (const key of Object.keys(obj)) if (!(key in shape)) errors.push(`${path}.${key}: not in the specification's field set`);
  for (const [key, want] of Object.entries(shape)) {
    const p = `${path}.${key}`;
    if (!(key in obj)) {
      errors.push(`${p}: missing`);
      continue;
    }
    const v = obj[key];
    if (typeof want === "string") {
      if (!matches(v, want)) errors.push(`${p}: expected ${want}, got ${typeOf(v)} ${JSON.stringify(v)}`);
    } else if (Array.isArray(want)) {
      if (!Array.isArray(v)) errors.push(`${p}: expected an array, got ${typeOf(v)}`);
      else v.forEach((item, i) => errors.push(...shapeErrors(item, want[0], `${p}[${i}]`)));
    } else {
      errors.push(...shapeErrors(v, want, p));
    }
  }
  return errors;
}

export function expectShape(value: unknown, shape: Shape): void {
  expect(shapeErrors(value, shape)).toEqual([]);
}

// Spec 2.5.
export const DNS_RECORD: Shape = { domain: "string", type: "string", label: "string", record_type: "string", value: "string" };
export const DNS_RECORD_WITH_HINT: Shape = { ...DNS_RECORD, hint: "string" };
export const HTTP_RECORD: Shape = { domain: "string", type: "string", record_type: "string", label: "string", path: "string", content: "string", link: "string" };
/** Not shown by the specification: the sandbox's own minimal element. */
export const EMAIL_RECORD: Shape = { domain: "string", type: "string", email: "string" };

// Spec 2.1.
export const USER_DATA: Shape = {
  user: {
    id: "integer", user_id: "string", username: "string", status: "integer", status_text: "string", user_type: "string",
    partner_level: "integer", bound_phone: "string", bound_email: "string",
  },
  account: {
    balance: "number", credit_line: "number", credit_used: "number", credit_available: "number", trusted_balance: "number", total_available: "number",
  },
  api_key: { app_id: "string", last_used_ip: "string" },
  server_time: "string",
};

// Spec 4.3.
export const CREATE_ORDER: Shape = {
  order_no: "string", total_amount: "number", discount_amount: "number", payable_amount: "number", unit_price: "number",
  san_price: "number", wildcard_price: "number", extra_san_count: "integer", extra_wc_count: "integer", installments_count: "integer",
  total_domains: "integer", years: "integer", months: "integer", payment_method: "string", deduct_amount: "number", is_custom_csr: "boolean",
};

// Spec 4.4 and 4.5.
export const SUBMISSION: Shape = {
  order_no: "string", cert_status: "integer", verification_method: "string",
  dns_records: [DNS_RECORD], http_records: [HTTP_RECORD], email_records: [EMAIL_RECORD], request_id: "string",
};

// Spec 4.6.
export const GET_RECORD: Shape = {
  order_no: "string", cert_status: "integer", verification_method: "string", main_domain: "string", sans_domains: "string[]",
  wildcard_domains: "string[]", all_domains: "string[]", all_domains_count: "integer",
  dns_records: [DNS_RECORD_WITH_HINT], http_records: [HTTP_RECORD], email_records: [EMAIL_RECORD], fetched_at: "string",
};

// Spec 4.7 / 2.6.
const UPSTREAM: Shape = { success: "boolean", provider: "string", message: "string", upstream_code: "string", skipped: "boolean" };
export const CANCEL_DIRECT: Shape = {
  order_no: "string", refund_id: "integer", refund_amount: "number", refund_to: "string", refund_order_no: "string",
  refund_mode: "string", refund_status: "integer", upstream_cancel: UPSTREAM,
};
export const CANCEL_AUDIT: Shape = Object.fromEntries(Object.entries(CANCEL_DIRECT).filter(([k]) => k !== "refund_order_no"));

// Reference: product list.
export const PRODUCT_ITEM: Shape = {
  product_name: "string", product_code: "string", product_type: "string", product_type_code: "string",
  verification_type: "string", verification_type_code: "string", domain_type: "string", domain_type_code: "string",
  brand: "string", brand_code: "string",
  signature_algorithms: [{ name: "string", code: "string", category: "string", description: "string", encryption_strengths: [{ name: "string", code: "string" }] }],
  hash_algorithms: [{ name: "string", code: "string" }],
  valid_years: [{ years: "integer", months: "integer", price: "number", price_source: "string", san_price: "number", wildcard_price: "number" }],
  price_source: "string", has_custom_price: "boolean", base_price: "number", original_price: "number", retail_price: "number",
  san_price: "number", wildcard_price: "number", max_single_domains: "integer", max_domains: "integer", max_wildcards: "integer",
};

// Reference: order status.
export const STATUS: Shape = {
  order_no: "string", order_status: "integer", order_status_label: "string", cert_id: "string", cert_status: "integer",
  cert_status_label: "string", ca_status: "integer|null", ca_status_text: "string|null", all_dcv_verified: "boolean",
  domain_statuses: [{ domain: "string", method: "string", verified: "boolean" }], serial_number: "string|null",
  start_date: "string|null", end_date: "string|null", request_id: "string|null", cert_downloaded: "boolean", source: "string",
  checked_at: "string", cooldown_seconds: "integer",
};

// Reference: certificate download.
export const DOWNLOAD: Shape = {
  order_no: "string", order_status: "integer", cert_id: "string", cert_status: "integer", installment_no: "integer",
  installments_count: "integer", product_name: "string", brand_name: "string", main_domain: "string", sans_domains: "string[]",
  wildcard_domains: "string[]", domains: "string[]", years: "integer", signature_algorithm: "string", hash_algorithm: "string",
  key_spec: "string", verification_method: "string", serial_number: "string", fingerprint_sha256: "string", issued_at: "string",
  start_date: "string", end_date: "string", valid_from: "string", valid_to: "string",
  certificate: {
    certificate_chain: "string", certificate_leaf: "string", intermediate_certificate: "string", private_key: "string",
    csr: "string", crt: "string", key: "string", ca_bundle: "string",
  },
  has_certificate: "boolean", has_private_key: "boolean", downloaded_at: "string",
};
