// Wire payloads as docs/wire-format.md shows them (the sandbox emits these).

export const userData = {
  user: {
    id: 1001, username: "acme-ops", email: "ops@acme.test", status: 1, bound_phone: null, bound_email: "ops@acme.test",
    balance: "5000.00", credit_limit: "2000.00", credit_used: "0.00", credit_available: "2000.00", total_available: "7000.00",
    currency: "CNY", created_at: "2026-01-02 10:00:00",
  },
  api_key: { app_id: "ak_0123456789abcdefghijklmn", status: 1, last_used_ip: "127.0.0.1", last_used_at: "2026-11-22 09:00:00", expires_at: null },
};

export const product = {
  product_id: 7, product_name: "Sandbox DV Multi-Domain", product_code: "sandbox-dv-multi", product_type: "SSL", product_type_code: "ssl",
  verification_type: "Domain Validation", verification_type_code: "dv", domain_type: "Multi-Domain", domain_type_code: "multi",
  brand: "Sandbox", brand_code: "sandbox",
  signature_algorithms: [{ name: "RSA", code: "rsa", category: "international", description: null, encryption_strengths: [{ name: "RSA 2048", code: "rsa-2048" }] }],
  hash_algorithms: [{ name: "SHA-256", code: "sha256" }],
  valid_years: [{ years: 1, months: 12, price: "100.00", price_source: "user", san_price: "20.00", wildcard_price: null }],
  price_source: "user", has_custom_price: false, base_price: "100.00", original_price: "150.00", retail_price: "150.00",
  san_price: "20.00", wildcard_price: null, max_single_domains: 100, max_domains: 100, max_wildcards: 0,
  verification_methods: [{ name: "DNS TXT", code: "dns" }], default_verification_method: "dns", max_months_per_certificate: 12,
  requires_company: false,
};

export function productPage(items: unknown[], page = 1, totalPages = 1, total = items.length) {
  return { user: { username: "acme-ops" }, query: { page }, products: { total, page, limit: 500, total_pages: totalPages, items } };
}

export const createOrder = {
  order_no: "CERT202611220930001234", order_status: 1, cert_status: 0, product_code: "sandbox-dv-multi", product_name: "Sandbox DV Multi-Domain",
  domain: "example.com", san_domains: ["www.example.com"], wildcard_domains: [], months: 12, years: 1, installments_count: 2,
  signature_algorithm: "rsa", key_spec: "rsa-2048", hash_algorithm: "sha256", verification_method: "dns", payment_method: "balance",
  price: {
    base_price: "100.00", san_count: 1, san_price: "20.00", san_total: "20.00", wildcard_count: 0, wildcard_price: "0.00",
    wildcard_total: "0.00", discount: "0.00", total: "120.00",
  },
  amount: "120.00", balance_after: "4880.00", credit_available_after: "2000.00", paid_at: "2026-11-22 09:30:00", created_at: "2026-11-22 09:30:00",
};

export const dnsRecord = { domain: "example.com", type: "main", method: "dns", record_type: "TXT", label: "_dnsauth", value: "tok-1" };
export const fileRecord = {
  domain: "example.com", type: "main", method: "file", record_type: null, label: "3F2A.txt",
  path: "/.well-known/pki-validation/3F2A.txt", content: "tok\nsandbox\nCERT1", link: "http://example.com/.well-known/pki-validation/3F2A.txt",
};
export const emailRecord = { domain: "example.com", type: "main", method: "email", record_type: null, label: null, email: "admin@example.com" };

export const applySign = {
  order_no: "CERT202611220930001234", cert_status: 2, request_id: "SIG-202611221200000000-ABC123", verification_method: "dns",
  records: [dnsRecord, { ...dnsRecord, domain: "www.example.com", type: "san", value: "tok-2" }], submitted_at: "2026-11-22 09:31:00",
};

export const getRecord = {
  order_no: "CERT202611220930001234", cert_status: 2, verification_method: "dns", email_suffix: null,
  request_id: "SIG-202611221200000000-ABC123", records: applySign.records,
};

export const changeMethod = {
  order_no: "CERT202611220930001234", cert_status: 2, verification_method: "file", email_suffix: null, request_id: "SIG-1",
  records: [fileRecord], changed_at: "2026-11-22 09:40:00", next_change_after: "2026-11-22 09:45:00",
};

export const cancelOrder = {
  order_no: "CERT202611220930001234", order_status: 4, cert_status: 5, refund_status: 3, refund_mode: "direct", refund_to: "balance",
  refund_amount: "120.00", refund_order_no: "REFUND202611221000001234",
  upstream_cancel: { skipped: false, success: true, message: "cancelled upstream" }, cancelled_at: "2026-11-22 10:00:00",
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
