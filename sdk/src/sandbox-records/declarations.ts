/**
 * The sandbox record resources as declarations, for the package schema: a
 * program in any language (through the provider plugin) can then publish an
 * order's validation records to a local sandbox, as a DNS provider's record
 * resource does for a real domain. The TypeScript classes (sandbox-records.ts)
 * are held to the table by the compiler below.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as t from "../schema/property.js";
import { managementUrlProblem } from "./management.js";
import type { SandboxDnsRecord } from "./sandbox-records.js";

/** Every member is part of the published record's identity: any change is a new record. A value is kept as given. */
const member = (description: string, rule: (value: unknown) => string | undefined) => ({
  description,
  type: t.string,
  required: true as const,
  change: "replace" as const,
  missing: rule(undefined),
  parse: (value: unknown, property: string): t.Parsed => {
    const reason = rule(value);
    return reason === undefined ? { value } : { failures: [{ property, reason }] };
  },
});

export const SANDBOX_DNS_RECORD_PROPERTIES = {
  managementUrl: member("The sandbox's management URL (`<sandbox url>/management`).", managementUrlProblem),
  fqdn: member("The record's absolute name, e.g. a validation record's `fqdn`.", (v) =>
    typeof v !== "string" || v.trim() === "" ? "fqdn is required: the record's absolute name, e.g. _dnsauth.example.com" : undefined,
  ),
  type: member("`TXT` or `CNAME`.", (v) => (["TXT", "CNAME"].includes(String(v).toUpperCase()) ? undefined : `type must be TXT or CNAME, not ${JSON.stringify(v)}`)),
  value: member("The TXT content or CNAME target.", (v) => (typeof v === "string" ? undefined : "value must be a string")),
} as const satisfies t.PropertyTable;

export const SANDBOX_DNS_RECORD = t.resource("SandboxDnsRecord", {
  description:
    "Publishes a DNS validation record to a local Partner API sandbox, as a DNS provider's record resource does for a real domain; the sandbox " +
    "validates with it when started with `--validation published`. Any change is a new record; delete unpublishes it (and is released if the sandbox is gone). " +
    "For tests and demos only.",
  properties: SANDBOX_DNS_RECORD_PROPERTIES,
  replacement: "publishes a new record",
  example: `
const args: SandboxDnsRecordArgs = { managementUrl, fqdn: "_dnsauth.example.com", type: "TXT", value: token };`,
}, "testing");

// The class is held to the table (its arguments and inputs are generated from it).
type Names = keyof typeof SANDBOX_DNS_RECORD_PROPERTIES;
const _outputs: t.Same<Exclude<t.MembersOfType<SandboxDnsRecord, pulumi.Output<unknown>>, "id" | "urn">, Names> = true;
void _outputs;
