// Wire payloads in the specification's shapes (money as JSON numbers), for
// the client's behaviour tests. The field-by-field checks against the
// specification's text are in ../../contract.

export const userData = {
  user: {
    id: 1001, user_id: "U1001", username: "acme-ops", status: 1, status_text: "normal", user_type: "partner", partner_level: 1,
    bound_phone: null, bound_email: "ops@acme.test",
  },
  account: { balance: 5000, credit_line: 2000, credit_used: 0, credit_available: 2000, trusted_balance: 0, total_available: 7000 },
  api_key: { app_id: "ak_0123456789abcdefghijklmn", last_used_ip: "127.0.0.1" },
  server_time: "2026-11-22 09:00:00",
};

export const product = {
  product_name: "Sandbox DV Multi-Domain", product_code: "sandbox-dv-multi", product_type: "SSL", product_type_code: "ssl",
  verification_type: "Domain Validation", verification_type_code: "dv", domain_type: "Multi-Domain", domain_type_code: "multiple-single",
  brand: "Sandbox", brand_code: "sandbox",
  signature_algorithms: [{ name: "RSA", code: "rsa", category: "international", description: null, encryption_strengths: [{ name: "RSA 2048", code: "rsa-2048" }] }],
  hash_algorithms: [{ name: "SHA-256", code: "sha256" }],
  valid_years: [{ years: 1, months: 12, price: 100, price_source: "user", san_price: 20, wildcard_price: null }],
  price_source: "user", has_custom_price: false, base_price: 100, original_price: 150, retail_price: 150,
  san_price: 20, wildcard_price: null, max_single_domains: 100, max_wildcards: 0,
};

export function productPage(items: unknown[], page = 1, totalPages = 1, total = items.length) {
  return { user: { username: "acme-ops" }, query: { page }, products: { total, page, limit: 500, total_pages: totalPages, items } };
}

export const createOrder = {
  order_no: "CERT202611220930001234", total_amount: 120, discount_amount: 0, payable_amount: 120, unit_price: 100, san_price: 20,
  wildcard_price: 0, extra_san_count: 1, extra_wc_count: 0, installments_count: 2, total_domains: 2, years: 1, months: 12,
  payment_method: "balance", deduct_amount: 120, is_custom_csr: false,
};

export const dnsRecord = { domain: "example.com", type: "main", label: "_dnsauth", record_type: "TXT", value: "tok-1" };
export const httpRecord = {
  domain: "example.com", type: "main", record_type: "FILE", label: "3F2A.txt",
  path: "http://example.com/.well-known/pki-validation/3F2A.txt", content: "tok\nsandbox\nCERT1", link: "//example.com/.well-known/pki-validation/3F2A.txt",
};

export const applySign = {
  order_no: "CERT202611220930001234", cert_status: 2, verification_method: "dns",
  dns_records: [dnsRecord, { ...dnsRecord, domain: "www.example.com", type: "san", value: "tok-2" }], http_records: [], email_records: [],
  request_id: "SIG-202611221200000000-ABC123",
};

export const getRecord = {
  order_no: "CERT202611220930001234", cert_status: 2, verification_method: "dns", main_domain: "example.com", sans_domains: ["www.example.com"],
  wildcard_domains: [], all_domains: ["example.com", "www.example.com"], all_domains_count: 2,
  dns_records: applySign.dns_records, http_records: [], email_records: [], fetched_at: "2026-11-22T09:31:00+08:00",
};

export const changeMethod = {
  order_no: "CERT202611220930001234", cert_status: 2, verification_method: "file", dns_records: [], http_records: [httpRecord], email_records: [],
  request_id: "SIG-1",
};

export const cancelOrder = {
  order_no: "CERT202611220930001234", refund_id: 77, refund_amount: 120, refund_to: "balance", refund_order_no: "REFUND202611221000001234",
  refund_mode: "direct", refund_status: 3,
  upstream_cancel: { success: true, provider: "sandbox-ca", message: "cancelled upstream", upstream_code: "0", skipped: false },
};

export const certificateStatus = {
  order_no: "CERT202611220930001234", order_status: 2, order_status_label: "completed", cert_id: "5b0d5c3e-1111-4b5e-9a3e-6c1f2f7e9a10",
  cert_status: 1, cert_status_label: "issued", ca_status: null, ca_status_text: null, all_dcv_verified: true,
  domain_statuses: [{ domain: "example.com", method: "dns", verified: true }], serial_number: "0A1B2C", start_date: "2026-11-22 09:50:00",
  end_date: "2027-11-22 09:50:00", request_id: "SIG-1", cert_downloaded: false, source: "ca", checked_at: "2026-11-22T09:55:00+00:00",
  cooldown_seconds: 180,
};

const leaf = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
const inter = "-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n";
const key = "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n";
export const download = {
  order_no: "CERT202611220930001234", order_status: 2, cert_id: "5b0d5c3e-1111-4b5e-9a3e-6c1f2f7e9a10", cert_status: 1, installment_no: 1,
  installments_count: 2, product_name: "Sandbox DV Multi-Domain", brand_name: "Sandbox", main_domain: "example.com",
  sans_domains: ["www.example.com"], wildcard_domains: [], domains: ["example.com", "www.example.com"], years: 1,
  signature_algorithm: "rsa", hash_algorithm: "sha256", key_spec: "rsa-2048", verification_method: "dns", serial_number: "0A1B2C",
  fingerprint_sha256: "AB:CD", issued_at: "2026-11-22 09:50:00", start_date: "2026-11-22 09:50:00", end_date: "2027-11-22 09:50:00",
  valid_from: "2026-11-22", valid_to: "2027-11-22",
  certificate: {
    certificate_chain: leaf + inter, certificate_leaf: leaf, intermediate_certificate: inter, private_key: key, csr: "-----BEGIN CERTIFICATE REQUEST-----\nX\n-----END CERTIFICATE REQUEST-----\n",
    crt: leaf + inter, key, ca_bundle: inter,
  },
  has_certificate: true, has_private_key: true, downloaded_at: "2026-11-22 10:00:00",
};
