import { z } from "zod";
import { boolish, certStatus, int, orderStatus, orNull, wireObject } from "./common.js";

// GetCertificateStatus and DownloadCertificate.

const domainStatus = wireObject({ domain: z.string(), method: z.string().nullish(), verified: boolish });

export const certificateStatusSchema = wireObject({
  order_no: z.string(),
  order_status: orderStatus,
  order_status_label: z.string().nullish(),
  cert_id: orNull(z.string()),
  cert_status: certStatus,
  cert_status_label: z.string().nullish(),
  ca_status: orNull(int),
  ca_status_text: orNull(z.string()),
  all_dcv_verified: boolish,
  domain_statuses: z.array(domainStatus),
  serial_number: orNull(z.string()),
  start_date: orNull(z.string()),
  end_date: orNull(z.string()),
  request_id: orNull(z.string()),
  cert_downloaded: boolish,
  source: z.string(),
  checked_at: z.string(),
  cooldown_seconds: int,
});

// An empty private key means "none" (custom CSR): read it as null.
const optionalPem = z
  .string()
  .nullish()
  .transform((v) => (v ? v : null));

const material = wireObject({
  certificate_chain: z.string().min(1),
  certificate_leaf: z.string().min(1),
  intermediate_certificate: z.string(),
  private_key: optionalPem,
  csr: optionalPem,
  crt: z.string().nullish(),
  key: z.string().nullish(),
  ca_bundle: z.string().nullish(),
});

export const certificateDownloadSchema = wireObject({
  order_no: z.string(),
  order_status: orderStatus.optional(),
  cert_id: z.string(),
  cert_status: certStatus,
  installment_no: int.optional(),
  installments_count: int.optional(),
  product_name: z.string().optional(),
  brand_name: z.string().optional(),
  main_domain: z.string().optional(),
  sans_domains: z.array(z.string()).optional(),
  wildcard_domains: z.array(z.string()).optional(),
  domains: z.array(z.string()).optional(),
  years: int.optional(),
  signature_algorithm: z.string().optional(),
  hash_algorithm: z.string().optional(),
  key_spec: z.string().optional(),
  verification_method: z.string().optional(),
  serial_number: z.string(),
  fingerprint_sha256: z.string().nullish(),
  issued_at: z.string().nullish(),
  start_date: z.string().nullish(),
  end_date: z.string().nullish(),
  valid_from: z.string().nullish(),
  valid_to: z.string().nullish(),
  certificate: material,
  has_certificate: boolish.optional(),
  has_private_key: boolish.optional(),
  downloaded_at: z.string().nullish(),
});
