import { Resolver } from "node:dns/promises";
import { parseHostPort } from "./address.js";
import { checkCname, checkTxt, recordName } from "./dns-check.js";
import { checkFile, overridesMap } from "./http-check.js";
import type { CheckResult, DcvRecordToCheck, RealValidator, RealValidatorOptions } from "./types.js";

const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * The sandbox's validation authority for `--validation real`: it looks at
 * what is actually published, as a CA would. File records are fetched over
 * HTTP (following redirects, HTTPS included) (with `hostOverrides` sending a domain to a local
 * server), DNS and CNAME records are looked up at `resolver`. E-mail is never
 * verified automatically: nobody reads the mail; the management API forces
 * issuance instead.
 *
 * Throws a TypeError at creation for an unusable option, naming it.
 *
 * @example
 * ```ts
 * const va = createRealValidator({ resolver: "127.0.0.1:5353", hostOverrides: { "example.com": "127.0.0.1:8080" } });
 * const { verified, detail } = await va.check({ domain: "example.com", method: "dns", recordType: "TXT", label: "_dnsauth", value: token });
 * ```
 */
export function createRealValidator(opts: RealValidatorOptions = {}): RealValidator {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new TypeError(`timeoutMs: must be a positive number of milliseconds, got ${timeoutMs}`);
  const hostOverrides = overridesMap(opts.hostOverrides);
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (opts.resolver !== undefined) {
    const parsed = parseHostPort(opts.resolver);
    if ("error" in parsed) throw new TypeError(`resolver: ${parsed.error}`);
    try {
      resolver.setServers([opts.resolver.trim()]);
    } catch (cause) {
      throw new TypeError(`resolver: "${opts.resolver}" is not an IP address with an optional port (c-ares takes addresses, not names)`, { cause });
    }
  }

  const check = async (rec: DcvRecordToCheck): Promise<CheckResult> => {
    switch (rec.method) {
      case "dns":
      case "cname": {
        if (rec.value === undefined || rec.value === "") return { verified: false, detail: `the ${rec.method} record for ${rec.domain} has no value to look for` };
        const name = recordName(rec.domain, rec.label);
        const type = rec.recordType ?? (rec.method === "dns" ? "TXT" : "CNAME");
        return type === "TXT" ? checkTxt(resolver, name, rec.value) : checkCname(resolver, name, rec.value);
      }
      case "file": {
        if (rec.content === undefined) return { verified: false, detail: `the ${rec.method} record for ${rec.domain} has no content to compare` };
        const link = rec.link ?? `http://${rec.domain.replace(/^\*\./, "")}/.well-known/pki-validation/${rec.label ?? ""}`;
        return checkFile(link, rec.content, { hostOverrides, timeoutMs });
      }
      case "email":
        return {
          verified: false,
          detail: `e-mail validation for ${rec.domain} is never verified automatically; force issuance through the management API (POST /management/orders/:orderNo/issue)`,
        };
      default:
        return { verified: false, detail: `unknown validation method ${JSON.stringify((rec as { method: unknown }).method)}` };
    }
  };
  return {
    async check(rec) {
      try {
        return await check(rec);
      } catch (error) {
        // A record malformed in a way no branch foresaw is still just a failed check.
        const reason = error instanceof Error ? error.message : String(error);
        return { verified: false, detail: `checking the ${String(rec?.method)} record for ${String(rec?.domain)} failed: ${reason}` };
      }
    },
  };
}
