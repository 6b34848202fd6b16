import * as pulumi from "@pulumi/pulumi";
import type {
  CertStatus,
  CompanyInfo,
  EmailSuffix,
  HashAlgorithm,
  KeySpec,
  OrderStatus,
  PaymentMethod,
  SignatureAlgorithm,
  ValidationRecord,
  VerificationMethod,
} from "../client/types.js";
import { lazyProvider, warnIfApiKeyNotSecret } from "../provider/index.js";
import type { OrderPriceState } from "./order/types.js";

// One provider object per resource type, so its serialized text is cached and identical across Orders.
const orderProvider = lazyProvider("resources/order/handlers.js");

/**
 * Inputs of an {@link Order}.
 *
 * @example
 * ```ts
 * const args: OrderArgs = { productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["www.example.com"] };
 * ```
 */
export interface OrderArgs {
  /** Product to buy (see `getProducts`). Changing it buys a new order. */
  productCode: pulumi.Input<string>;
  /** Main name: FQDN, `*.` wildcard or public IP, as the product allows. */
  domain: pulumi.Input<string>;
  /** Further FQDNs (or IPs); order does not matter. */
  sanDomains?: pulumi.Input<pulumi.Input<string>[]>;
  /** Further wildcards (`*.example.com`). */
  wildcardDomains?: pulumi.Input<pulumi.Input<string>[]>;
  /** Term in months; default 12. */
  months?: pulumi.Input<number>;
  /** Domain-control validation method; default the product's. Changes in place. */
  verificationMethod?: pulumi.Input<VerificationMethod>;
  /** Mailbox for `email` validation; default `admin`. Changes in place. */
  emailSuffix?: pulumi.Input<EmailSuffix>;
  /** Default `rsa`. */
  signatureAlgorithm?: pulumi.Input<SignatureAlgorithm>;
  /** Default derived from the algorithm (`rsa-2048`, `p-256`, `sm2`). */
  keySpec?: pulumi.Input<KeySpec>;
  /** Default `sha256`. */
  hashAlgorithm?: pulumi.Input<HashAlgorithm>;
  /** Default `balance`. */
  paymentMethod?: pulumi.Input<PaymentMethod>;
  /** A company registered with the reseller (OV/EV), instead of `companyInfo`. */
  companyId?: pulumi.Input<number>;
  /** Organisation details, required for OV/EV unless `companyId` is given. */
  companyInfo?: pulumi.Input<CompanyInfo>;
  /** Your own PEM CSR; the service then holds no private key. */
  customCsr?: pulumi.Input<string>;
  /** Coupon code (`quotedPrice` is before the coupon). */
  couponCode?: pulumi.Input<string>;
  /**
   * Renew (replace with a new purchase) this many days before the bought
   * term ends; a preview inside the window shows the replacement and why.
   */
  renewBeforeDays?: pulumi.Input<number>;
  /**
   * Adopt an existing order instead of buying: `up` verifies that it exists,
   * belongs to the account and covers exactly the declared names, then
   * records it. This is how to import an order — Pulumi's `import` option
   * cannot load dynamic providers. Also the repair path after an interrupted
   * create.
   */
  adoptOrderNo?: pulumi.Input<string>;
}

/**
 * A certificate order with the Certificate Reseller Partner API: `up` buys it
 * (CreateOrder, never retried) and submits it for validation (ApplySign);
 * `destroy` cancels it and reports the refund. `preview` checks every input
 * against the product and shows `quotedPrice` before anything is spent.
 *
 * Configure with `pulumi config set --secret certreseller:apiKey ...` and
 * `certreseller:baseUrl` (or `CERTRESELLER_API_KEY`/`CERTRESELLER_BASE_URL`).
 *
 * @example
 * ```ts
 * import * as certs from "pulumi-certreseller";
 * const order = new certs.Order("site", {
 *   productCode: "sandbox-dv-multi",
 *   domain: "example.com",
 *   sanDomains: ["www.example.com"],
 *   verificationMethod: "dns",
 *   renewBeforeDays: 30,
 * });
 * export const orderNo = order.orderNo;
 * ```
 */
export class Order extends pulumi.dynamic.Resource {
  /** Type token; @pulumi/policy's `isType` matches on it. */
  static readonly __pulumiType = "pulumi-nodejs:dynamic/certreseller:Order";

  declare readonly productCode: pulumi.Output<string>;
  declare readonly domain: pulumi.Output<string>;
  declare readonly sanDomains: pulumi.Output<string[]>;
  declare readonly wildcardDomains: pulumi.Output<string[]>;
  declare readonly months: pulumi.Output<number>;
  declare readonly verificationMethod: pulumi.Output<VerificationMethod>;
  declare readonly emailSuffix: pulumi.Output<EmailSuffix | undefined>;
  declare readonly signatureAlgorithm: pulumi.Output<SignatureAlgorithm>;
  declare readonly keySpec: pulumi.Output<KeySpec>;
  declare readonly hashAlgorithm: pulumi.Output<HashAlgorithm>;
  declare readonly paymentMethod: pulumi.Output<PaymentMethod>;
  declare readonly companyId: pulumi.Output<number | undefined>;
  declare readonly companyInfo: pulumi.Output<CompanyInfo | undefined>;
  declare readonly customCsr: pulumi.Output<string | undefined>;
  declare readonly couponCode: pulumi.Output<string | undefined>;
  declare readonly renewBeforeDays: pulumi.Output<number | undefined>;
  declare readonly adoptOrderNo: pulumi.Output<string | undefined>;
  /** Price of the purchase before any coupon, computed at preview from the catalogue. */
  declare readonly quotedPrice: pulumi.Output<string | undefined>;
  /** The order number (also the resource id). */
  declare readonly orderNo: pulumi.Output<string>;
  /** What was charged; absent for adopted orders (the API does not report it). */
  declare readonly price: pulumi.Output<OrderPriceState | undefined>;
  declare readonly certStatus: pulumi.Output<CertStatus>;
  declare readonly orderStatus: pulumi.Output<OrderStatus | undefined>;
  /** The signing request id (absent until submitted); changes when the verification method changes. */
  declare readonly requestId: pulumi.Output<string | undefined>;
  /** Raw validation records as the API returns them (shape them with `Validation`). */
  declare readonly records: pulumi.Output<ValidationRecord[]>;
  declare readonly installmentsCount: pulumi.Output<number | undefined>;
  declare readonly paidAt: pulumi.Output<string | undefined>;
  /** ISO time the bought term ends (payment + months): the renewal clock. */
  declare readonly termEndsAt: pulumi.Output<string | undefined>;

  /**
   * Every ordered name, lower-case: main domain, then SANs and wildcards
   * sorted. Built from the ARGUMENTS, so it is known at preview whenever the
   * program's own domain list is (a `Validation` uses it to declare one
   * record per name before the order exists).
   */
  readonly orderedNames: pulumi.Output<string[]>;

  constructor(name: string, args: OrderArgs, opts?: pulumi.CustomResourceOptions) {
    warnIfApiKeyNotSecret();
    const props = {
      ...args,
      journalKey: pulumi.createUrn(name, Order.__pulumiType, opts?.parent),
      quotedPrice: undefined,
      orderNo: undefined,
      price: undefined,
      certStatus: undefined,
      orderStatus: undefined,
      requestId: undefined,
      records: undefined,
      installmentsCount: undefined,
      paidAt: undefined,
      termEndsAt: undefined,
    };
    super(orderProvider, name, props, opts, "certreseller", "Order");
    const canonical = (n: string) => n.trim().toLowerCase().replace(/\.$/, "");
    this.orderedNames = pulumi
      .all([args.domain, args.sanDomains ?? [], args.wildcardDomains ?? []])
      .apply(([domain, sans, wildcards]) => [
        canonical(domain),
        ...[...sans.map(canonical), ...wildcards.map(canonical)].sort(),
      ]);
  }
}
