/**
 * The propagation check: before the Certificate waits for issuance, the
 * order's DNS validation records must be visible where the CA will look
 * them up. Reads only — GetRecord (stored records, no rate limit) and DNS
 * queries — so a failure buys, cancels and submits nothing.
 */
import type { PartnerApi } from "../../client/types.js";
import { CertStatus } from "../../client/vocabulary.js";
import { PropagationTimeoutError, waitForPropagation, type ExpectedRecord } from "../../dns/lookup/index.js";
import type { ProviderContext } from "../../provider/context.js";
import type { Clock } from "../shared/clock.js";
import { configuredDns, skippedByDefault, systemDns, type DnsDeps } from "../shared/dns-checks.js";
import { effectiveMethod, shapeValidationRecords } from "../validation/records.js";
import { DEFAULT_PROPAGATION_MINUTES, type CertificateInputs } from "./inputs.js";

/**
 * The records were not visible on every server in time. The Certificate
 * fails; the order is paid and stays with the Order (the message says so).
 */
export class PropagationCheckFailedError extends Error {
  override readonly name = "PropagationCheckFailedError";
  constructor(
    readonly orderNo: string,
    override readonly cause: PropagationTimeoutError,
  ) {
    super(
      `order ${orderNo}: ${cause.message}\n` +
        "The CA looks these records up the same way, so it would not find them yet. Nothing was bought or cancelled: the order is paid and " +
        "stays in state with its Order; only this Certificate failed. Publish each record at exactly that name, in the zone its servers serve, " +
        "then run `pulumi up` again — or raise propagationTimeoutMinutes, name propagationResolvers, or set propagationCheck: false.",
      { cause },
    );
  }
}

/**
 * The order's DNS validation records, as the CA looks them up; empty when
 * the method is not `dns`/`cname` or the order awaits no validation.
 *
 * @example
 * await expectedRecords(ctx.api(), "CERT202607041730001234") // { method: "dns", records: [{ fqdn: "_dnsauth.example.com", type: "TXT", value: "0123…" }] }
 */
export async function expectedRecords(api: PartnerApi, orderNo: string): Promise<{ method: string; records: ExpectedRecord[] }> {
  const set = await api.getRecord({ orderNo });
  const method = effectiveMethod(String(set.verificationMethod ?? ""), undefined, set);
  if (set.certStatus !== CertStatus.Issuing || (method !== "dns" && method !== "cname")) return { method, records: [] };
  // The same shaping as the Validation's records, so the names checked are the names the program published.
  // `records` holds every record, those matched to no name included; a wildcard and its base name may share one.
  const { records } = shapeValidationRecords(set, { method, domains: set.allDomains, allDomains: set.allDomains });
  const seen = new Set<string>();
  const expected: ExpectedRecord[] = [];
  for (const r of records) {
    const type = r.recordType === "CNAME" ? "CNAME" : r.recordType === "TXT" ? "TXT" : undefined;
    const key = `${r.fqdn} ${type} ${r.value}`;
    if (!r.fqdn || !type || seen.has(key)) continue;
    seen.add(key);
    expected.push({ fqdn: r.fqdn, type, value: r.value });
  }
  return { method, records: expected };
}

/** How the check reaches the DNS and waits: the handlers' real ones, or a test's (see `createCertificateHandlers`). */
export interface PropagationDeps {
  readonly clock: Clock;
  /** Default: the real DNS ({@link systemDns}). */
  readonly dns?: DnsDeps;
}

/**
 * Runs the check for a Certificate about to wait: returns when every record
 * is visible (or the check does not apply, or nothing could be asked or
 * read: then a warning), throws {@link PropagationCheckFailedError} at its
 * timeout.
 *
 * @example
 * await checkPropagation({ clock: systemClock, dns: systemDns }, ctx, inputs); // before waitForIssuance
 */
export async function checkPropagation(deps: PropagationDeps, ctx: ProviderContext, inputs: CertificateInputs): Promise<void> {
  const log = ctx.log(inputs.resourceUrn);
  if (inputs.propagationCheck === false) return;
  const resolvers = inputs.propagationResolvers && inputs.propagationResolvers.length > 0 ? inputs.propagationResolvers : undefined;
  const skipped = skippedByDefault(inputs.propagationCheck, ctx.settings, resolvers !== undefined);
  if (skipped !== undefined) {
    log.info(`order ${inputs.orderNo}: DNS propagation not checked: ${skipped}; set propagationCheck: true (or propagationResolvers) to check it`);
    return;
  }
  let found: Awaited<ReturnType<typeof expectedRecords>>;
  try {
    found = await expectedRecords(ctx.api(), inputs.orderNo);
  } catch (error) {
    // A read that fails here fails the status reads next too, with their own message: this check only advises.
    log.warn(`order ${inputs.orderNo}: DNS propagation not checked: GetRecord failed (${(error as Error).message})`);
    return;
  }
  const { method, records } = found;
  if (records.length === 0) return;
  const minutes = inputs.propagationTimeoutMinutes ?? DEFAULT_PROPAGATION_MINUTES;
  const dns = configuredDns(deps.dns ?? systemDns, ctx.settings);
  const where = resolvers ? resolvers.join(", ") : "the authoritative servers of each record's zone";
  log.info(`order ${inputs.orderNo}: checking that ${records.length} ${method} validation record(s) are visible on ${where} (up to ${minutes} min)`);
  try {
    const report = await waitForPropagation({
      records,
      resolvers,
      lookupFor: dns.lookupFor,
      authoritativePort: dns.authoritativePort,
      clock: deps.clock,
      timeoutMs: minutes * 60_000,
      log: (line) => log.info(`order ${inputs.orderNo}: ${line}`),
    });
    if (report.unverified !== undefined) {
      log.warn(`order ${inputs.orderNo}: DNS propagation not checked: no DNS server answered (${report.unverified}); waiting for the CA without it`);
    } else {
      const unreachable = report.unreachable.length > 0 ? `; ${report.unreachable.join(", ")} never answered from here (the CA may reach them)` : "";
      if (unreachable) log.warn(`order ${inputs.orderNo}: validation records visible on every server that answered${unreachable}`);
      else log.info(`order ${inputs.orderNo}: every validation record is visible on every server`);
    }
  } catch (error) {
    if (error instanceof PropagationTimeoutError) throw new PropagationCheckFailedError(inputs.orderNo, error);
    throw error;
  }
}
