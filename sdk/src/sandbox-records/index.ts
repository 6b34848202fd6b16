/**
 * Testing aids: resources that publish validation records to the local
 * sandbox (`certreseller-sandbox`), standing in for a DNS provider or a web
 * server. Exported from the package root as `testing`.
 *
 * @example
 * ```ts
 * import * as certs from "pulumi-certreseller";
 * new certs.testing.SandboxDnsRecord("dcv", { managementUrl, fqdn, type: "TXT", value });
 * ```
 */
export { SandboxDnsRecord, SandboxFileRecord, type SandboxDnsRecordArgs, type SandboxFileRecordArgs } from "./sandbox-records.js";
export { SandboxManagementError } from "./management.js";
