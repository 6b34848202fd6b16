import * as pulumi from "@pulumi/pulumi";
import { refuseImportOption } from "../../program/resource-options.js";
import { Certificate } from "../certificate/resource.js";
import { Order, type OrderArgs } from "../order/resource.js";
import { Validation } from "../validation/resource.js";
import { FROM_CERTIFICATE, type FromCertificate } from "./passed-on.js";

/**
 * One name's validation record as {@link ValidatedCertificateArgs.publish}
 * receives it: `name` is known when the program runs (it is one of the
 * names you declared), the rest are Outputs of the Validation, unknown in a
 * first preview. Fields that do not apply to the method are empty strings.
 *
 * @example
 * ```ts
 * const publish = (r: ValidationRecordToPublish) => new cloudflare.DnsRecord(`dcv-${r.name}`, { zoneId, name: r.fqdn, type: r.type, content: r.value, ttl: 60 });
 * ```
 */
export interface ValidationRecordToPublish {
  /** The ordered name this record validates, as declared (`*.example.com` for a wildcard). */
  name: string;
  /** The validated name (a wildcard's base name). */
  domain: pulumi.Output<string>;
  /** DNS (methods `dns`, `cname`): the absolute record name. */
  fqdn: pulumi.Output<string>;
  /** The record's type: `TXT` or `CNAME` for DNS, `FILE` for file validation, empty for e-mail. */
  type: pulumi.Output<string>;
  /** Same as `type`, under the name `Validation.records` uses. */
  recordType: pulumi.Output<string>;
  /** DNS: the TXT content or CNAME target. */
  value: pulumi.Output<string>;
  /** File: the full URL the CA fetches. */
  url: pulumi.Output<string>;
  /** File: the path under the web root. */
  path: pulumi.Output<string>;
  /** File: the exact content to serve. */
  content: pulumi.Output<string>;
  /** E-mail: the mailbox the approval goes to. */
  email: pulumi.Output<string>;
}

/**
 * Arguments of {@link ValidatedCertificate}: the Order's arguments, plus how
 * to publish each record and the Certificate's options.
 *
 * `domain`, `sanDomains` and `wildcardDomains` must be plain strings (not
 * Outputs): `publish` is called once per name while the program runs,
 * preview included, so the names must be known then.
 *
 * @example
 * ```ts
 * const args: ValidatedCertificateArgs = {
 *   productCode: "sandbox-dv-single",
 *   domain: "example.com",
 *   verificationMethod: "dns",
 *   publish: (r) => new cloudflare.DnsRecord(`dcv-${r.name}`, { zoneId, name: r.fqdn, type: r.type, content: r.value, ttl: 60 }),
 * };
 * ```
 */
export interface ValidatedCertificateArgs extends Omit<OrderArgs, "domain" | "sanDomains" | "wildcardDomains"> {
  domain: string;
  sanDomains?: string[];
  wildcardDomains?: string[];
  /**
   * Called once per ordered name (main domain, SANs, wildcards), at program
   * time; returns the resource(s) that publish that name's record. The
   * Certificate waits for all of them. Give them names unique per record
   * (e.g. from `record.name`); `context.parent` is the component, if you
   * want them under it.
   */
  publish: (record: ValidationRecordToPublish, context: { parent: pulumi.ComponentResource; index: number }) => pulumi.Resource | pulumi.Resource[];
  /** The Certificate's wait for issuance in minutes (default 60); `customTimeouts.create` on the component works too. */
  timeoutMinutes?: pulumi.Input<number>;
  /** The Certificate's propagation check (see `CertificateArgs.propagationCheck`): wait until the records `publish` made are visible in DNS. */
  propagationCheck?: pulumi.Input<boolean>;
  /** How long the Certificate's propagation check waits, in minutes (default 10). */
  propagationTimeoutMinutes?: pulumi.Input<number>;
  /** DNS servers (`address:port`) the Certificate's propagation check asks instead of each zone's authoritative servers. */
  propagationResolvers?: pulumi.Input<pulumi.Input<string>[]>;
  /** The Certificate's PKCS#12 password (secret); derived from the key when omitted (see `Certificate.pfxPassword`). */
  pfxPassword?: pulumi.Input<string>;
}

/**
 * The common case in one call: an {@link Order}, its {@link Validation},
 * your resources publishing each validation record, and the
 * {@link Certificate} that waits for them — with the certificate's outputs.
 *
 * Children: `<name>` Order, `<name>` Validation and `<name>` Certificate;
 * the records are whatever `publish` returns. `customTimeouts` given to the
 * component set the Certificate's wait. The `import` option is refused (see
 * `adoptOrderNo` to take over an existing order).
 *
 * @example
 * ```ts
 * const site = new certs.ValidatedCertificate("site", {
 *   productCode: "sandbox-dv-multi",
 *   domain: "example.com",
 *   sanDomains: ["www.example.com"],
 *   verificationMethod: "dns",
 *   publish: (r) => new cloudflare.DnsRecord(`dcv-${r.name}`, { zoneId, name: r.fqdn, type: r.type, content: r.value, ttl: 60 }),
 * });
 * export const fullChainPem = site.fullChainPem;
 * export const privateKeyPem = site.privateKeyPem; // secret
 * ```
 */
export class ValidatedCertificate extends pulumi.ComponentResource {
  static readonly __pulumiType = "certreseller:index:ValidatedCertificate";

  readonly order: Order;
  readonly validation: Validation;
  readonly certificate: Certificate;
  /** Every resource `publish` returned, in the order of the names. */
  readonly records: pulumi.Resource[];

  readonly orderNo: pulumi.Output<string>;
  readonly certId: pulumi.Output<string>;

  constructor(name: string, args: ValidatedCertificateArgs, opts?: pulumi.ComponentResourceOptions) {
    refuseImportOption("ValidatedCertificate", name, opts as pulumi.CustomResourceOptions, 'declare it with `adoptOrderNo: "CERT..."` among its arguments to take over an existing order.');
    const names = declaredNames(name, args);
    super(ValidatedCertificate.__pulumiType, name, {}, opts);
    const { publish, timeoutMinutes, pfxPassword, propagationCheck, propagationTimeoutMinutes, propagationResolvers, ...orderArgs } = args;
    this.order = new Order(name, orderArgs, { parent: this });
    this.validation = new Validation(name, { order: this.order }, { parent: this });
    this.records = names.flatMap((n, index) => {
      const published = publish(recordToPublish(this.validation, n), { parent: this, index });
      return Array.isArray(published) ? published : [published];
    });
    // customTimeouts on the component apply to the only child that waits.
    this.certificate = new Certificate(
      name,
      { order: this.order, timeoutMinutes, pfxPassword, propagationCheck, propagationTimeoutMinutes, propagationResolvers },
      { parent: this, dependsOn: this.records, customTimeouts: opts?.customTimeouts },
    );
    this.orderNo = this.order.orderNo;
    this.certId = this.certificate.certId;
    // The component's own outputs are stored in state too: identifiers only
    // (the certificate's material is the Certificate child's).
    this.registerOutputs({
      orderNo: this.orderNo,
      certId: this.certId,
      notAfter: this.notAfter,
    });
  }

  /** SECRET. The Certificate's `pfxPassword`. */
  get pfxPassword(): pulumi.Output<string> {
    return this.certificate.pfxPassword;
  }
}

// The Certificate's outputs it passes on (FROM_CERTIFICATE), read from the child when read, as the Certificate computes its derived forms.
export interface ValidatedCertificate extends Pick<Certificate, FromCertificate> {}
for (const name of FROM_CERTIFICATE) {
  Object.defineProperty(ValidatedCertificate.prototype, name, {
    get(this: ValidatedCertificate) {
      return this.certificate[name];
    },
  });
}

/**
 * The names `publish` is called for, as the program wrote them and in its
 * order (main, SANs, wildcards): each record's `name`, and so the names of
 * the resources the program makes from it. Not canonicalised or sorted like
 * the Order's `orderedNames`: that would rename the program's resources.
 */
function declaredNames(name: string, args: ValidatedCertificateArgs): string[] {
  const plain = (v: unknown) => typeof v === "string";
  const lists = [args.sanDomains ?? [], args.wildcardDomains ?? []];
  if (!plain(args.domain) || lists.some((l) => !Array.isArray(l) || !l.every(plain))) {
    throw new Error(
      `ValidatedCertificate "${name}": domain, sanDomains and wildcardDomains must be plain strings — publish is called once per name ` +
        "while the program runs, so the names must be known then. With names from Outputs, declare Order, Validation and Certificate yourself.",
    );
  }
  return [args.domain, ...lists.flat()];
}

function recordToPublish(validation: Validation, name: string): ValidationRecordToPublish {
  const r = validation.recordFor(name);
  const field = (k: "domain" | "fqdn" | "recordType" | "value" | "url" | "path" | "content" | "email") => r.apply((x) => x[k] ?? "");
  return {
    name,
    domain: field("domain"),
    fqdn: field("fqdn"),
    type: field("recordType"),
    recordType: field("recordType"),
    value: field("value"),
    url: field("url"),
    path: field("path"),
    content: field("content"),
    email: field("email"),
  };
}
