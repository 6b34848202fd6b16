import * as pulumi from "@pulumi/pulumi";
import { providerText } from "../program/provider-text.js";
import { quietRegistration } from "../program/quiet-registration.js";
import type { SandboxDnsRecordArgs, SandboxDnsRecordProperties } from "./properties.generated.js";

export type { SandboxDnsRecordArgs } from "./properties.generated.js";

// The class's outputs, as declared (declaration merging: the engine sets them).
export interface SandboxDnsRecord extends SandboxDnsRecordProperties {}

/**
 * Publishes a DNS validation record to the sandbox — what a DNS provider
 * resource (Cloudflare, Route 53, ...) does for a real domain. The sandbox
 * validates with it in `--validation published` mode. Any change is a new
 * record; delete unpublishes it (and is released if the sandbox is gone).
 *
 * @example
 * ```ts
 * const r = validation.dnsRecordFor("example.com");
 * const record = new certs.testing.SandboxDnsRecord("dcv", { managementUrl, fqdn: r.fqdn, type: r.type, value: r.value });
 * new certs.Certificate("site", { orderNo: order.orderNo }, { dependsOn: [record] });
 * ```
 */
export class SandboxDnsRecord extends pulumi.CustomResource {
  static readonly __pulumiType = "pulumi-nodejs:dynamic/certreseller-testing:SandboxDnsRecord";

  constructor(name: string, args: SandboxDnsRecordArgs, opts?: pulumi.CustomResourceOptions) {
    const props = { managementUrl: args.managementUrl, fqdn: args.fqdn, type: args.type, value: args.value };
    using _registration = quietRegistration();
    super(SandboxDnsRecord.__pulumiType, name, { ...props, __provider: providerText("testing/dns-record") }, opts);
  }
}

/**
 * Inputs of {@link SandboxFileRecord}.
 *
 * @example
 * ```ts
 * const args: SandboxFileRecordArgs = { managementUrl, url: "http://example.com/.well-known/pki-validation/ABC.txt", content };
 * ```
 */
export interface SandboxFileRecordArgs {
  /** The sandbox's management URL (`<sandbox url>/management`). */
  managementUrl: pulumi.Input<string>;
  /**
   * The URL the CA fetches: `validation.fileRecordFor(d).url`, the full
   * `http://<domain>/.well-known/pki-validation/<file>` URL. A record's
   * protocol-relative `link` (`//<domain>/...`) is accepted and stored as its
   * `http:` URL.
   */
  url: pulumi.Input<string>;
  /** The exact file content: `validation.fileRecordFor(d).content`. */
  content: pulumi.Input<string>;
}

/**
 * Publishes a file validation record to the sandbox — what serving the file
 * from the site's web root does for a real domain. A new URL is a new
 * record; new content updates it in place; delete unpublishes it.
 *
 * @example
 * ```ts
 * const f = validation.fileRecordFor("example.com");
 * new certs.testing.SandboxFileRecord("dcv", { managementUrl, url: f.url, content: f.content });
 * ```
 */
export class SandboxFileRecord extends pulumi.CustomResource {
  static readonly __pulumiType = "pulumi-nodejs:dynamic/certreseller-testing:SandboxFileRecord";

  declare readonly managementUrl: pulumi.Output<string>;
  declare readonly url: pulumi.Output<string>;
  declare readonly content: pulumi.Output<string>;

  constructor(name: string, args: SandboxFileRecordArgs, opts?: pulumi.CustomResourceOptions) {
    const props = { managementUrl: args.managementUrl, url: args.url, content: args.content };
    using _registration = quietRegistration();
    super(SandboxFileRecord.__pulumiType, name, { ...props, __provider: providerText("testing/file-record") }, opts);
  }
}
