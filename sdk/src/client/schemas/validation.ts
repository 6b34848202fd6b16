import { z } from "zod";
import { certStatus, emailSuffix, orNull, verificationMethod, wireObject } from "./common.js";

// Validation records and the three operations that return them:
// ApplySign (seed 4.4), GetRecord, ChangeVertificationMethod.

export const validationRecordSchema = wireObject({
  domain: z.string(),
  type: z.enum(["main", "san", "wildcard", ""]),
  method: verificationMethod.optional(),
  // null for file/https/email records; an empty string read as null too.
  record_type: z
    .enum(["TXT", "CNAME", ""])
    .nullish()
    .transform((v) => (v ? v : null)),
  label: orNull(z.string()),
  value: z.string().nullish(),
  path: z.string().nullish(),
  content: z.string().nullish(),
  link: z.string().nullish(),
  email: z.string().nullish(),
});

const records = z.array(validationRecordSchema);

export const applySignResultSchema = wireObject({
  order_no: z.string(),
  cert_status: certStatus,
  request_id: orNull(z.string()),
  verification_method: verificationMethod.optional(),
  records,
  submitted_at: z.string().nullish(),
});

export const recordSetSchema = wireObject({
  order_no: z.string(),
  cert_status: certStatus.optional(),
  verification_method: verificationMethod.nullish(),
  email_suffix: emailSuffix.nullish(),
  request_id: orNull(z.string()),
  records,
});

export const changeVerificationMethodResultSchema = wireObject({
  order_no: z.string(),
  cert_status: certStatus.optional(),
  verification_method: verificationMethod,
  email_suffix: emailSuffix.nullish(),
  request_id: z.string().nullish(),
  records,
  changed_at: z.string().nullish(),
  next_change_after: z.string().nullish(),
});
