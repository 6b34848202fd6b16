import { Resolver } from "node:dns/promises";
import type { CheckResult } from "./types.js";

/**
 * The name a DNS record is published at: `label` is relative to the domain
 * (a wildcard is validated at its base name). A label that already ends in
 * the domain is taken as written.
 */
export function recordName(domain: string, label: string | null): string {
  const base = domain.replace(/^\*\./, "").replace(/\.$/, "").toLowerCase();
  if (label === null || label === "" || label === "@") return base;
  const relative = label.replace(/\.$/, "").toLowerCase();
  return relative === base || relative.endsWith(`.${base}`) ? relative : `${relative}.${base}`;
}

export async function checkTxt(resolver: Resolver, name: string, expected: string): Promise<CheckResult> {
  let records: string[][];
  try {
    records = await resolver.resolveTxt(name);
  } catch (error) {
    return { verified: false, detail: `no TXT record at ${name}: ${lookupFailure(error)}` };
  }
  // A TXT record longer than 255 characters arrives in chunks: one value.
  const values = records.map((chunks) => chunks.join(""));
  if (values.some((v) => v.trim() === expected.trim())) return { verified: true, detail: `TXT ${name} holds the expected value` };
  return { verified: false, detail: `TXT ${name} has ${values.length} value(s), none the expected one: ${JSON.stringify(values.slice(0, 5))}` };
}

export async function checkCname(resolver: Resolver, name: string, expected: string): Promise<CheckResult> {
  let targets: string[];
  try {
    targets = await resolver.resolveCname(name);
  } catch (error) {
    return { verified: false, detail: `no CNAME record at ${name}: ${lookupFailure(error)}` };
  }
  const want = canonicalHost(expected);
  if (targets.some((t) => canonicalHost(t) === want)) return { verified: true, detail: `CNAME ${name} points to ${want}` };
  return { verified: false, detail: `CNAME ${name} points to ${targets.join(", ")}, expected ${want}` };
}

function canonicalHost(name: string): string {
  return name.trim().replace(/\.$/, "").toLowerCase();
}

function lookupFailure(error: unknown): string {
  if (error instanceof Error && "code" in error) {
    const code = String(error.code);
    const meaning: Record<string, string> = {
      ENOTFOUND: "the name does not exist (NXDOMAIN)",
      ENODATA: "the name has no record of that type",
      ETIMEOUT: "the resolver did not answer in time",
      ECONNREFUSED: "the resolver refused the connection",
      ESERVFAIL: "the resolver answered SERVFAIL",
    };
    return meaning[code] ?? `${code} (${error.message})`;
  }
  return String(error);
}
