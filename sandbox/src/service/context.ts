import type { CertificateAuthority } from "../ca/index.js";
import type { CloudflareStandIn } from "../cloudflare/index.js";
import type { SandboxClock } from "../clock.js";
import type { Store } from "../store/store.js";
import type { AccountRecord, PublishedDnsRecord } from "../store/types.js";
import type { Body } from "./fields.js";

export type ValidationMode = "auto" | "published" | "real";

/** Knobs that can change while the sandbox runs (`PUT /management/config`). */
export interface RuntimeConfig {
  validation: ValidationMode;
  issueAfterSeconds: number;
  statusCooldownSeconds: number;
  methodCooldownSeconds: number;
  refundWindowDays: number;
  mirrorStatus: boolean;
  /** When true, upstream cancellation fails, so CancelOrder falls back to `audit` mode. */
  upstreamCancelFails: boolean;
  /** Days before a certificate expires from which the order's next installment can be submitted (at most half its lifetime). */
  renewalWindowDays: number;
}

export const DEFAULT_CONFIG: RuntimeConfig = {
  validation: "auto",
  issueAfterSeconds: 0,
  statusCooldownSeconds: 180,
  methodCooldownSeconds: 300,
  refundWindowDays: 7,
  mirrorStatus: false,
  upstreamCancelFails: false,
  renewalWindowDays: 30,
};

/** What `--validation real` checks; implemented in `validation/` (the method there is the kind of check, not the order's method code). */
export interface RecordChecker {
  check(rec: {
    domain: string; method: "dns" | "cname" | "file" | "email"; recordType: "TXT" | "CNAME" | null;
    label: string | null; value?: string; link?: string; content?: string;
  }): Promise<{ verified: boolean; detail: string }>;
}

export interface ServiceContext {
  store: Store;
  clock: SandboxClock;
  config: RuntimeConfig;
  ca: CertificateAuthority;
  realValidator: RecordChecker | undefined;
  /** The Cloudflare API stand-in; its TXT and CNAME records are published like `/management/dns-records`. */
  cloudflare: CloudflareStandIn;
}

/** The DNS records `--validation published` finds: those posted to the management API and those created through the Cloudflare API. */
export function publishedDnsRecords(ctx: ServiceContext): PublishedDnsRecord[] {
  return [...ctx.store.dnsRecords, ...ctx.cloudflare.dns.published()];
}

export interface OperationRequest {
  account: AccountRecord;
  body: Body;
}
