/**
 * What the DNS checks (the Order's CAA check at preview, the Certificate's
 * propagation check) share: how they reach the DNS, and when they run by
 * default.
 */
import { isLoopback } from "../../client/partner-client.js";
import { createDnsLookup, type DnsLookup } from "../../dns/lookup/index.js";
import { baseUrlHost, type ProviderSettings } from "../../provider/config.js";

/**
 * How the checks reach the DNS. The handlers use {@link systemDns}; tests
 * pass scripted lookups (no network) or point the port at a local server.
 */
export interface DnsDeps {
  /** A lookup asking `servers` (`address:port`), or, without them, the resolvers the provider is configured with. */
  lookupFor(servers?: readonly string[]): DnsLookup;
  /** The port a zone's authoritative servers are asked on: 53, except in tests. */
  readonly authoritativePort?: number;
}

/** The real DNS through `node:dns`. */
export const systemDns: DnsDeps = { lookupFor: (servers) => createDnsLookup({ servers }) };

/**
 * {@link DnsDeps} whose default servers are the provider's `dnsResolvers` setting.
 *
 * @example
 * configuredDns(systemDns, ctx.settings).lookupFor() // asks certreseller:dnsResolvers, else the system's resolvers
 */
export function configuredDns(deps: DnsDeps, settings: ProviderSettings): DnsDeps {
  return { ...deps, lookupFor: (servers) => deps.lookupFor(servers ?? settings.dnsResolvers) };
}

/**
 * Why a DNS check does not run by default here, or undefined when it does.
 *
 * A Partner API on this machine (a loopback base URL: the sandbox) is a CA
 * that looks at no public DNS: in its `auto` and `published` modes records
 * are never in any DNS, and the names test programs order (`example.com`)
 * are not theirs. So the checks are off there unless a DNS server is named
 * (the provider's `dnsResolvers`, or the check's own servers), which is
 * what a sandbox in `validation: "real"` mode is pointed at. An explicit
 * `true` or `false` always wins.
 *
 * @example
 * skippedByDefault(undefined, { baseUrl: "http://127.0.0.1:8080", journalDir }, false) // "the Partner API is on this machine (…)"
 * skippedByDefault(undefined, { baseUrl: "https://partner.example.net", journalDir }, false) // undefined: the check runs
 */
export function skippedByDefault(explicit: boolean | undefined, settings: ProviderSettings, serversNamed: boolean): string | undefined {
  if (explicit !== undefined) return explicit ? undefined : "turned off";
  if (serversNamed || (settings.dnsResolvers?.length ?? 0) > 0) return undefined;
  const host = baseUrlHost(settings);
  return host !== undefined && isLoopback(host)
    ? `the Partner API is on this machine (${host}, a sandbox), whose records are in no public DNS, and no DNS server is named (certreseller:dnsResolvers)`
    : undefined;
}
