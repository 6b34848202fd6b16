import * as pulumi from "@pulumi/pulumi";
import { providerText } from "../../program/provider-text.js";
import { refuseImportOption } from "../../program/resource-options.js";
import { quietRegistration } from "../../program/quiet-registration.js";
import type { Rfc2136RecordArgs, Rfc2136RecordProperties } from "./properties.generated.js";

export type { Rfc2136RecordArgs } from "./properties.generated.js";

// The class's outputs, as declared (declaration merging: the engine sets them).
export interface Rfc2136Record extends Rfc2136RecordProperties {}

/**
 * A DNS validation record published with an RFC 2136 dynamic UPDATE signed
 * with TSIG: for zones on BIND, Knot, PowerDNS, Windows DNS, Infoblox and
 * other servers that take dynamic updates. Create adds the record (a TXT
 * value joins other values at the name); a new value replaces the old one
 * in ONE update; delete removes only this record's value. Updates carry
 * RFC 2136 prerequisites: a record the server already held is kept as
 * `preExisting` and never deleted; a CNAME beside other records, or a TXT
 * record at a CNAME, is refused naming what is there. `server`, `zone`,
 * `fqdn` or `type` changing publishes a new record. A refusal by the server
 * fails with the setting to fix (REFUSED: `zone` or the key's update policy;
 * NOTAUTH: `zone`/`server`; BADSIG: `tsigSecret`; BADKEY: `tsigKeyName`/
 * `tsigAlgorithm`; BADTIME: the clocks).
 *
 * @example
 * ```ts
 * const cfg = new pulumi.Config();
 * const site = new certs.ValidatedCertificate("site", {
 *   productCode: "sandbox-dv-single",
 *   domain: "www.example.com",
 *   verificationMethod: "dns",
 *   publish: (r, { parent }) =>
 *     new certs.Rfc2136Record(`dcv-${r.name}`, {
 *       server: "ns1.example.com:53", zone: "example.com",
 *       fqdn: r.fqdn, type: r.type, value: r.value,
 *       tsigKeyName: "certreseller.", tsigSecret: cfg.requireSecret("tsigSecret"),
 *     }, { parent }),
 * });
 * ```
 */
export class Rfc2136Record extends pulumi.CustomResource {
  /** Lets policy packs (`isType`, `validateResourceOfType`) recognise this class. */
  static readonly __pulumiType = "pulumi-nodejs:dynamic/certreseller:Rfc2136Record";

  constructor(name: string, args: Rfc2136RecordArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImportOption("Rfc2136Record", name, opts, "declare it as usual: its create finds a record the server already holds and keeps it as preExisting, never deleting it.");
    const props = {
      server: args.server,
      zone: args.zone,
      fqdn: args.fqdn,
      type: args.type,
      value: args.value,
      ttl: args.ttl,
      tsigKeyName: args.tsigKeyName,
      tsigAlgorithm: args.tsigAlgorithm,
      // Secret as an input (state's inputs and the check/diff payloads) and as an output.
      tsigSecret: pulumi.secret(args.tsigSecret),
      preExisting: undefined,
    };
    const secretOpts: pulumi.CustomResourceOptions = { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "tsigSecret"] };
    using _registration = quietRegistration();
    super(Rfc2136Record.__pulumiType, name, { ...props, __provider: providerText("rfc2136-record") }, secretOpts);
  }
}
