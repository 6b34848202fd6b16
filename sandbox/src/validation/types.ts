export interface RealValidatorOptions {
  /** DNS server for TXT/CNAME lookups, `host:port` (`[v6]:port` for IPv6); the system's resolvers when absent. */
  resolver?: string;
  /**
   * Host → address for HTTP(S) checks, instead of resolving the record's
   * domain: `"127.0.0.1"`, `"127.0.0.1:8080"`, `"[::1]:8443"`. A port here
   * replaces the link's port (tests serve `http://example.com/...` from a
   * loopback server on a free port). Host names match case-insensitively.
   */
  hostOverrides?: Record<string, string>;
  /** Per check, across redirects and DNS retries. Default 5000. */
  timeoutMs?: number;
}

/** One validation record to look for: `method` is the kind of check (TXT, CNAME, file, e-mail). */
export interface DcvRecordToCheck {
  domain: string;
  method: "dns" | "cname" | "file" | "email";
  recordType: "TXT" | "CNAME" | null;
  /** Relative to `domain` for DNS records; the file name for file records. */
  label: string | null;
  /** Expected TXT value or CNAME target. */
  value?: string;
  /** Where the file must be served, a full `http(s)://` URL. */
  link?: string;
  /** Expected file body (compared trimmed, line endings normalised). */
  content?: string;
}

export interface CheckResult {
  verified: boolean;
  /** What was looked at and found, for the order's status and the sandbox log. */
  detail: string;
}

export interface RealValidator {
  /** Never throws for a failed check: a failure is `verified: false` with the reason. */
  check(rec: DcvRecordToCheck): Promise<CheckResult>;
}
