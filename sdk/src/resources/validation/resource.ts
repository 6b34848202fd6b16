import * as pulumi from "@pulumi/pulumi";
import { providerText } from "../../program/provider-text.js";
import { warnIfApiKeyNotSecret } from "../../program/warnings.js";
import { followerImportAdvice, refuseImportOption } from "../../program/resource-options.js";
import { canonicalName, normaliseName } from "../../rules/names.js";
import { quietRegistration } from "../../program/quiet-registration.js";
import {
  expandRecords,
  pickRecord,
  toDnsRecord,
  toFileRecord,
  type DnsValidationRecord,
  type FileValidationRecord,
  type DomainValidationRecord,
  type StoredValidationRecord,
} from "./records.js";
import type { OrderLike } from "./order-like.js";
import type { ValidationProperties } from "./properties.generated.js";

export type { DnsValidationRecord, FileValidationRecord, DomainValidationRecord } from "./records.js";

export type { OrderLike } from "./order-like.js";

// The class's outputs, as declared (declaration merging: the engine sets them).
export interface Validation extends ValidationProperties {}

/**
 * Arguments of {@link Validation}: an `Order`, or an order number with its domains.
 *
 * @example
 * ```ts
 * const follow: ValidationArgs = { order };
 * const explicit: ValidationArgs = { orderNo: "CERT202607041730001234", domains: ["example.com", "www.example.com"], method: "dns" };
 * ```
 */
export type ValidationArgs =
  | {
      /** The order to validate; its domains, method and request id are followed. */
      order: OrderLike;
    }
  | {
      /** The order number (e.g. `order.orderNo`, or an order bought elsewhere). */
      orderNo: pulumi.Input<string>;
      /** The order's names (main, SANs, wildcards): one record each. */
      domains: pulumi.Input<pulumi.Input<string>[]>;
      /**
       * The method the order uses (a spec 4.5 code: `dns`, `cname`, `file`,
       * `email-admin`, `email-postmaster`, `email-webmaster`,
       * `email-hostmaster`, `dcv`); when given, the service must agree, and
       * when it changes the records are re-read.
       */
      method?: pulumi.Input<string>;
      /**
       * The order's sign request id (ApplySign's or the last method change's
       * `request_id`); when it changes the records are re-read. GetRecord does
       * not report it, so without it only a method change re-reads.
       */
      requestId?: pulumi.Input<string>;
    };

/**
 * The validation records of an order, shaped for DNS and web resources.
 *
 * The number of records and their domains are those of the order, which the
 * program already knows at preview: loop over your own domain list and pick
 * each domain's record with {@link Validation.dnsRecordFor} or
 * {@link Validation.fileRecordFor}. When the Order switches validation method
 * (a new method, or a new sign request id) the records are re-read, so the
 * DNS records follow with the new tokens.
 *
 * Each declared name gets its own record (`orderedName`), so publishing
 * `recordFor(d)` for every name publishes every record the CA checks. For
 * e-mail validation the service shows no record shape; each name's record
 * then carries only `email`, the mailbox named by the method code
 * (`email-admin` → `admin@<domain>`).
 *
 * @example
 * ```ts
 * const domains = ["example.com", "www.example.com"];
 * const order = new certs.Order("site", { productCode: "sandbox-dv-multi", domain: domains[0], sanDomains: domains.slice(1) });
 * const validation = new certs.Validation("site", { order });
 * const records = domains.map((d) => {
 *   const r = validation.dnsRecordFor(d);
 *   return new cloudflare.DnsRecord(`dcv-${d}`, { zoneId, name: r.fqdn, type: r.type, content: r.value, ttl: 60 });
 * });
 * ```
 */
export class Validation extends pulumi.CustomResource {
  /** Lets policy packs (`isType`, `validateResourceOfType`) recognise this class. */
  static readonly __pulumiType = "pulumi-nodejs:dynamic/certreseller:Validation";

  /** Domains known when the program was written, to refuse a typo at once. */
  private readonly plainDomains: string[] | undefined;
  /** The order's names as the program declares them: known at preview, before anything is bought. */
  private readonly declaredNames: pulumi.Output<string[]>;
  private readonly resourceName: string;

  constructor(name: string, args: ValidationArgs, opts?: pulumi.CustomResourceOptions) {
    // `import` cannot work for dynamic resources; say so before the engine fails obscurely.
    refuseImportOption("Validation", name, opts, followerImportAdvice("Validation"));
    warnIfApiKeyNotSecret();
    let props: Record<string, pulumi.Input<unknown>>;
    let plainDomains: string[] | undefined;
    if ("order" in args && args.order) {
      const { order } = args;
      props = {
        // The Order's id is its order number, and stays known in a preview of an
        // in-place update of the Order (a reissue, a method change), whereas the
        // orderNo output is then unknown and would read as a replacement.
        orderNo: order.id ?? order.orderNo,
        // From the Order's arguments when it has them: the checkpoint (which the engine
        // rewrites after every step) then records no dependency on the Order for this
        // input; `orderNo` already makes the Validation wait for the Order.
        domains:
          order.orderedNames ??
          pulumi.all([order.domain, order.sanDomains, order.wildcardDomains]).apply(([d, s, w]) => [d, ...(s ?? []), ...(w ?? [])]),
        method: order.verificationMethod,
        requestId: order.requestId,
      };
    } else {
      const explicit = args as Extract<ValidationArgs, { orderNo: unknown }>;
      props = { orderNo: explicit.orderNo, domains: explicit.domains, method: explicit.method, requestId: explicit.requestId };
      if (Array.isArray(explicit.domains) && explicit.domains.every((d) => typeof d === "string")) {
        plainDomains = (explicit.domains as string[]).map(normaliseName);
      }
    }
    // Output-only members must be present (undefined) to be registered as outputs.
    using _registration = quietRegistration();
    super(Validation.__pulumiType, name, { ...props, emailSuffix: undefined, records: undefined, __provider: providerText("validation") }, opts);
    this.plainDomains = plainDomains;
    this.declaredNames = pulumi.output(props.domains as pulumi.Input<pulumi.Input<string>[]>) as pulumi.Output<string[]>;
    this.resourceName = name;
    // State holds the records compact (storeRecords); programs get every field.
    const stored = this.records as pulumi.Output<StoredValidationRecord[] | undefined>;
    (this as { records: Validation["records"] }).records = pulumi.all([stored, this.method]).apply(([records, method]) => expandRecords(records, method ?? ""));
  }

  /**
   * The record for `domain` (one of the order's names; `*.example.com` picks
   * the wildcard's record, validated at `example.com`).
   *
   * @example
   * ```ts
   * export const mailbox = validation.recordFor("example.com").email; // e-mail validation
   * ```
   */
  recordFor(domain: string): pulumi.Output<DomainValidationRecord> {
    return this.pick("recordFor", domain, (r) => r);
  }

  /**
   * The DNS record to publish for `domain` (methods `dns` and `cname`).
   * `name` is relative to the validated domain, `fqdn` absolute.
   *
   * @example
   * ```ts
   * const r = validation.dnsRecordFor("www.example.com");
   * new cloudflare.DnsRecord("dcv-www", { zoneId, name: r.fqdn, type: r.type, content: r.value, ttl: 60 });
   * ```
   */
  dnsRecordFor(domain: string): pulumi.Output<DnsValidationRecord> {
    return this.pick("dnsRecordFor", domain, (r) => toDnsRecord(r, domain));
  }

  /**
   * The file to publish for `domain` (method `file`): serve `content` at
   * `url`, the full `http://<domain>/.well-known/pki-validation/<file>` URL
   * (`path` is the same under the site's web root).
   *
   * @example
   * ```ts
   * const f = validation.fileRecordFor("example.com");
   * new testing.SandboxFileRecord("dcv-file", { managementUrl, url: f.url, content: f.content });
   * ```
   */
  fileRecordFor(domain: string): pulumi.Output<FileValidationRecord> {
    return this.pick("fileRecordFor", domain, (r) => toFileRecord(r, domain));
  }

  /**
   * `domain`'s record, shaped. The name is checked against the order's
   * declared names first, which a preview knows: a name the order lacks then
   * fails the preview, before the Order is bought, instead of after.
   */
  private pick<T>(helper: string, domain: string, shape: (record: DomainValidationRecord) => T): pulumi.Output<T> {
    this.assertDeclared(domain);
    const declared = this.declaredNames.apply((names) => {
      if (!names.some((name) => sameValidatedName(name, domain))) {
        throw new Error(
          `Validation "${this.resourceName}": ${helper}(${JSON.stringify(domain)}): "${domain}" is not one of the order's names (${names.join(", ")}); ` +
            "ask for one of them, or add the name to the Order",
        );
      }
      return names;
    });
    return pulumi.all([declared, this.records]).apply(([, records]) => shape(pickRecord(records, domain)));
  }

  private assertDeclared(domain: string): void {
    if (this.plainDomains && !this.plainDomains.includes(normaliseName(domain))) {
      throw new Error(
        `Validation: "${domain}" is not one of the declared domains (${this.plainDomains.join(", ")})`,
      );
    }
  }
}

/** True when both names are validated at the same name (a wildcard at its base), as {@link pickRecord} picks. */
function sameValidatedName(a: string, b: string): boolean {
  const base = (name: string) => canonicalName(name).replace(/^\*\./, "");
  return base(a) === base(b);
}
