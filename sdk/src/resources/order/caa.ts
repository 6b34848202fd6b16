/**
 * The Order's CAA check at preview: each ordered name's Relevant RRset
 * (RFC 8659) looked up, and judged against the issuer domains of the
 * product's CA, before anything is bought. DNS lookups only: no Partner API
 * call, nothing that moves money.
 */
import { isIP } from "node:net";
import { relevantCaaSet, type CaaAnswers, type RelevantCaa } from "../../dns/lookup/index.js";
import type { ProviderSettings } from "../../provider/config.js";
import type { ProviderLog } from "../../provider/log.js";
import { caaIssuerDomainsOf } from "../../rules/caa-issuers.js";
import { describeCaaRefusal, judgeCaa, type IssuerSource } from "../../rules/caa.js";
import type { RuleFailure } from "../../rules/failure.js";
import { configuredDns, skippedByDefault, type DnsDeps } from "../shared/dns-checks.js";

/** An ordered name and the input it came from (the failure names that input). */
export interface OrderedName {
  readonly property: "domain" | "sanDomains" | "wildcardDomains";
  readonly name: string;
}

/** What the check needs from the Order's checked inputs and the product list. */
export interface CaaCheckRequest {
  readonly names: readonly OrderedName[];
  readonly productCode: string;
  /** The product's `brand_code`; undefined when the product list did not say or could not be read. */
  readonly brandCode: string | undefined;
  /** Whether the product list answered (a brand it does not give is then unknown, not unread). */
  readonly productKnown: boolean;
  readonly caaCheck?: boolean;
  readonly caaIssuerDomains?: readonly string[];
  /** The Order's `verificationMethod` (RFC 8657 `validationmethods` is judged against it); undefined when unset. */
  readonly verificationMethod?: string;
}

/**
 * CAA answers for this process, per way of reaching the DNS and per
 * resolver: the Orders of one preview share parents (`example.com`) and
 * ask once. (A provider process lives for one operation.)
 */
const answersByDns = new WeakMap<DnsDeps, Map<string, CaaAnswers>>();
/** The default skip against a sandbox is said once per process, not once per Order. */
let skipTold = false;
/** Parents a server refused (`where name`), said once per process: every Order under them climbs into the same refusal. */
const refusalsTold = new Set<string>();

/**
 * The failures for names whose CAA records refuse the product's CA (one
 * per name, on the input that holds it); warnings, never failures, for what
 * could not be checked (a failed lookup, an unknown brand).
 *
 * @example
 * const failures = await checkCaa(systemDns, ctx.settings, log, { names: [{ property: "domain", name: "example.com" }], productCode, brandCode: "sandbox", productKnown: true });
 */
export async function checkCaa(dns: DnsDeps, settings: ProviderSettings, log: ProviderLog, request: CaaCheckRequest): Promise<RuleFailure[]> {
  const skipped = skippedByDefault(request.caaCheck, settings, false);
  if (skipped !== undefined) {
    if (request.caaCheck === undefined && !skipTold) {
      skipTold = true;
      log.info(`CAA not checked: ${skipped}; set caaCheck: true (or certreseller:dnsResolvers) to check it`);
    }
    return [];
  }
  const issuers = issuersFor(log, request);
  if (!issuers) return [];
  const lookup = configuredDns(dns, settings).lookupFor();
  let byResolver = answersByDns.get(dns);
  if (!byResolver) answersByDns.set(dns, (byResolver = new Map()));
  let answers = byResolver.get(lookup.where);
  if (!answers) byResolver.set(lookup.where, (answers = new Map()));
  const names = request.names.filter(({ name }) => isIP(name) === 0); // CAA governs domain names only
  const found = await Promise.all(
    names.map(async (n) => {
      try {
        return { ...n, caa: await relevantCaaSet(lookup, n.name, answers) };
      } catch (error) {
        return { ...n, error: error as Error };
      }
    }),
  );
  const failures: RuleFailure[] = [];
  const unchecked: string[] = [];
  for (const result of found) {
    if ("error" in result) {
      unchecked.push(`${result.name} (${result.error.message})`);
      continue;
    }
    const failure = judge(result.name, result.caa, issuers, request);
    if (failure) failures.push({ property: result.property, reason: failure });
    const unanswered = result.caa.unanswered;
    if (unanswered && !refusalsTold.has(`${lookup.where} ${unanswered.name}`)) {
      refusalsTold.add(`${lookup.where} ${unanswered.name}`);
      log.warn(
        `CAA not checked at ${unanswered.name} (for ${result.name}): ${unanswered.error.message}. The names below it have no CAA, and a CA climbs on ` +
          `to ${unanswered.name} in the public DNS (RFC 8659); point certreseller:dnsResolvers at a resolver that answers for every zone to check it`,
      );
    }
  }
  if (unchecked.length > 0) {
    log.warn(
      `CAA not checked for ${unchecked.join(", ")}: the DNS lookup failed. The CA checks CAA before issuing; if it refuses, the order is already paid. ` +
        "Run the preview again, or set certreseller:dnsResolvers to a resolver that answers",
    );
  }
  return failures;
}

/** The issuer domains to compare with and whose they are; undefined (with a warning) when unknown. */
function issuersFor(log: ProviderLog, request: CaaCheckRequest): { domains: readonly string[]; source: IssuerSource } | undefined {
  if (request.caaIssuerDomains && request.caaIssuerDomains.length > 0) return { domains: request.caaIssuerDomains, source: { override: true } };
  if (!request.productKnown) {
    log.warn(`CAA not checked: the product list could not be read, so the CA of ${request.productCode} is not known; set caaIssuerDomains to check without it`);
    return undefined;
  }
  const domains = caaIssuerDomainsOf(request.brandCode);
  if (!domains) {
    const brand = request.brandCode ? `brand "${request.brandCode}"` : "no brand";
    log.warn(
      `CAA not checked: product ${request.productCode} has ${brand}, and which CAA issuer domains name its CA is not known to this package ` +
        '(the Partner API does not publish them); set caaIssuerDomains (e.g. ["sectigo.com"]) to check, or caaCheck: false to silence this',
    );
    return undefined;
  }
  return { domains, source: { brand: request.brandCode! } };
}

function judge(name: string, caa: RelevantCaa, issuers: { domains: readonly string[]; source: IssuerSource }, request: CaaCheckRequest): string | undefined {
  const verdict = judgeCaa(caa.rrset, issuers.domains, name.startsWith("*."), { verificationMethod: request.verificationMethod });
  if (verdict.allowed || caa.at === undefined) return undefined;
  return describeCaaRefusal({ name, at: caa.at, rrset: caa.rrset, verdict, issuers: issuers.domains, source: issuers.source });
}
