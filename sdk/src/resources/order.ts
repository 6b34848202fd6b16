import * as pulumi from "@pulumi/pulumi";
import type {
  CertStatus,
  CompanyInfo,
  HashAlgorithm,
  KeySpec,
  Open,
  OpenInt,
  PaymentMethod,
  SignatureAlgorithm,
  VerificationMethod,
} from "../client/types.js";
import { providerText, refuseImportOption, warnIfApiKeyNotSecret } from "../provider/index.js";
import { canonicalName } from "../rules/names.js";
import { orderJournalScope, watchJournalOrphans } from "../journal/program.js";
import type { OrderInputName } from "./order/inputs.js";
import { expandPrice } from "./order/stored-price.js";
import type { OrderPriceState } from "./order/types.js";
import { quietRegistration } from "./quiet-registration.js";
import { resourceUrnInput } from "./resource-urn.js";

/**
 * Inputs of an {@link Order}. Each member's last sentence says what a change
 * does on the next `up`: "Changing it buys a new order." (replace), "Changes
 * in place." (update) or "Changing it alone changes nothing." (none); a
 * unit test holds these to the declaration in `order/inputs.ts`.
 *
 * @example
 * ```ts
 * const args: OrderArgs = { productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["www.example.com"], years: 1 };
 * ```
 */
export interface OrderArgs {
  /** Product to buy (see `getProducts`). Changing it buys a new order. */
  productCode: pulumi.Input<string>;
  /**
   * Main name: a domain name, a `*.` wildcard, or a public IPv4/IPv6
   * address, as the product's domain type allows (spec 2.3). Changing it buys a new order.
   */
  domain: pulumi.Input<string>;
  /** Further plain domain names; their order does not matter. Changing it buys a new order. */
  sanDomains?: pulumi.Input<pulumi.Input<string>[]>;
  /** Further wildcards (`*.example.com`). Changing it buys a new order. */
  wildcardDomains?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Term in years; alone it means `years * 12` months. Given with `months`
   * the two must agree. Changing it buys a new order.
   */
  years?: pulumi.Input<number>;
  /** Term in months; default `years * 12`, else 12. Changing it buys a new order. */
  months?: pulumi.Input<number>;
  /**
   * Domain-control validation method (spec 4.5 codes; `email-…` names the
   * mailbox). Unset: the service applies the product's default, and the
   * `verificationMethod` output says which. Changes in place.
   */
  verificationMethod?: pulumi.Input<VerificationMethod>;
  /** Default `rsa`. Changing it buys a new order. */
  signatureAlgorithm?: pulumi.Input<SignatureAlgorithm>;
  /** Default derived from the algorithm (`rsa-2048`, `p-256`, `sm2`). Changing it buys a new order. */
  keySpec?: pulumi.Input<KeySpec>;
  /** Default `sha256`. Changing it buys a new order. */
  hashAlgorithm?: pulumi.Input<HashAlgorithm>;
  /** Default `balance`. Changing it buys a new order. */
  paymentMethod?: pulumi.Input<PaymentMethod>;
  /** A company registered with the reseller (OV/EV), instead of `companyInfo`. Changing it buys a new order. */
  companyId?: pulumi.Input<number>;
  /**
   * The organisation (spec 2.4), required for OV/EV unless `companyId` is
   * given. `contactFirst` is the contact's family name, `contactLast` the
   * given name. Changing it buys a new order.
   */
  companyInfo?: pulumi.Input<CompanyInfo>;
  /** Your own PEM CSR; the service then holds no private key. Changing it buys a new order. */
  customCsr?: pulumi.Input<string>;
  /** Coupon code (`quotedPrice` is before the coupon). Changing it buys a new order. */
  couponCode?: pulumi.Input<string>;
  /**
   * Renew this many days before the CURRENT CERTIFICATE expires (its
   * `notAfter`; before this release: before the order's term ended). Inside
   * the window, while the order has another installment, the Order is
   * updated in place (the next certificate is submitted, nothing is bought);
   * once no installment is left, the Order is replaced (a new purchase). A
   * preview shows which and why. Changing it alone changes nothing.
   */
  renewBeforeDays?: pulumi.Input<number>;
  /**
   * Renew when this percentage (1-99) of the current certificate's lifetime
   * is left, like cert-manager's `renewBeforePercentage`; with
   * `renewBeforeDays` too, the earlier window wins. Changing it alone changes nothing.
   */
  renewBeforePercentage?: pulumi.Input<number>;
  /**
   * Adopt an existing order instead of buying: `up` verifies that it exists,
   * belongs to the account and covers exactly the declared names, then
   * records it. This is how to import an order — Pulumi's `import` option
   * cannot load dynamic providers. Also the repair path after an interrupted
   * create. Naming the order the resource holds is no change; naming
   * another: Changing it buys a new order.
   */
  adoptOrderNo?: pulumi.Input<string>;
}

// Every declared input is an argument and every argument is declared.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const argsMatchDeclaration: Same<keyof OrderArgs, OrderInputName> = true;
void argsMatchDeclaration;

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
 *   years: 1,
 *   verificationMethod: "dns",
 *   renewBeforeDays: 30,
 * });
 * export const orderNo = order.orderNo;
 * ```
 */
export class Order extends pulumi.CustomResource {
  /** Type token; @pulumi/policy's `isType` matches on it. */
  static readonly __pulumiType = "pulumi-nodejs:dynamic/certreseller:Order";

  declare readonly productCode: pulumi.Output<string>;
  declare readonly domain: pulumi.Output<string>;
  declare readonly sanDomains: pulumi.Output<string[]>;
  declare readonly wildcardDomains: pulumi.Output<string[]>;
  declare readonly years: pulumi.Output<number | undefined>;
  declare readonly months: pulumi.Output<number>;
  /**
   * The method in effect, as ApplySign (or the method change) reported it;
   * `email` may stand for an `email-…` method.
   */
  declare readonly verificationMethod: pulumi.Output<Open<VerificationMethod> | undefined>;
  declare readonly signatureAlgorithm: pulumi.Output<SignatureAlgorithm>;
  declare readonly keySpec: pulumi.Output<KeySpec>;
  declare readonly hashAlgorithm: pulumi.Output<HashAlgorithm>;
  declare readonly paymentMethod: pulumi.Output<PaymentMethod>;
  declare readonly companyId: pulumi.Output<number | undefined>;
  declare readonly companyInfo: pulumi.Output<CompanyInfo | undefined>;
  declare readonly customCsr: pulumi.Output<string | undefined>;
  declare readonly couponCode: pulumi.Output<string | undefined>;
  declare readonly renewBeforeDays: pulumi.Output<number | undefined>;
  declare readonly renewBeforePercentage: pulumi.Output<number | undefined>;
  declare readonly adoptOrderNo: pulumi.Output<string | undefined>;
  /** Price of the purchase before any coupon, computed at preview from the catalogue. */
  declare readonly quotedPrice: pulumi.Output<string | undefined>;
  /** The order number (also the resource id). */
  declare readonly orderNo: pulumi.Output<string>;
  /**
   * What CreateOrder's answer said was charged; absent for adopted orders
   * (the API does not report it). Members the answer left out read as zero;
   * zero members are not stored in state.
   */
  declare readonly price: pulumi.Output<OrderPriceState | undefined>;
  /** From ApplySign: 2 while validation is pending (see `CertStatus`). */
  declare readonly certStatus: pulumi.Output<OpenInt<CertStatus> | undefined>;
  /** The signing request id from ApplySign (absent until submitted); changes when the verification method changes. */
  declare readonly requestId: pulumi.Output<string | undefined>;
  /** How many certificates the order holds (a term longer than one certificate's lifetime). */
  declare readonly installmentsCount: pulumi.Output<number | undefined>;
  /** ISO time the provider received CreateOrder's answer: the service reports no payment time. */
  declare readonly paidAt: pulumi.Output<string | undefined>;
  /** ISO time the bought term ends (`paidAt` + months): the renewal clock. */
  declare readonly termEndsAt: pulumi.Output<string | undefined>;
  /** The installment (1-based) the order is on: 1 at purchase, one more after each reissue. */
  declare readonly installmentNo: pulumi.Output<number | undefined>;
  /** The current certificate's notAfter as last learned from the service (ISO); absent until learned (renewal settings only). */
  declare readonly certNotAfter: pulumi.Output<string | undefined>;
  /** When the next reissue (or, with no installment left, the renewal purchase) is due (ISO); absent until known. */
  declare readonly renewsAt: pulumi.Output<string | undefined>;
  /** True when the order was adopted, not bought by this resource. */
  declare readonly adopted: pulumi.Output<boolean | undefined>;
  /**
   * The app id of the API key that bought or adopted the order (GetUserData's
   * `api_key.app_id`: the key's public identifier, never its secret). Refresh
   * and destroy refuse to drop, cancel or release the order under another
   * account's key; absent in state written by an earlier release.
   */
  declare readonly accountId: pulumi.Output<string | undefined>;

  /**
   * Every ordered name, lower-case: main domain, then SANs and wildcards
   * sorted. Built from the ARGUMENTS, so it is known at preview whenever the
   * program's own domain list is (a `Validation` uses it to declare one
   * record per name before the order exists).
   */
  readonly orderedNames: pulumi.Output<string[]>;

  constructor(name: string, args: OrderArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImportOption(
      "Order",
      name,
      opts,
      `declare the Order with adoptOrderNo: ${JSON.stringify(typeof opts?.import === "string" ? opts.import : "<the order number>")} — up verifies the order and records it without buying`,
    );
    warnIfApiKeyNotSecret();
    const urn = resourceUrnInput(name, Order.__pulumiType, opts?.parent);
    const props = {
      ...args,
      journalKey: urn,
      journalScope: orderJournalScope(),
      quotedPrice: undefined,
      orderNo: undefined,
      price: undefined,
      certStatus: undefined,
      requestId: undefined,
      installmentsCount: undefined,
      paidAt: undefined,
      termEndsAt: undefined,
      installmentNo: undefined,
      certNotAfter: undefined,
      renewsAt: undefined,
      adopted: undefined,
      accountId: undefined,
    };
    const quiet = quietRegistration();
    try {
      super(Order.__pulumiType, name, { ...props, __provider: providerText("order") }, opts);
    } catch (error) {
      throw quiet.failed(error, Order);
    } finally {
      quiet.end();
    }
    watchJournalOrphans(this, urn);
    this.price = this.price.apply(expandPrice);
    const canonical = canonicalName;
    this.orderedNames = pulumi
      .all([args.domain, args.sanDomains ?? [], args.wildcardDomains ?? []])
      .apply(([domain, sans, wildcards]) => [
        canonical(domain),
        ...[...sans.map(canonical), ...wildcards.map(canonical)].sort(),
      ]);
  }
}
