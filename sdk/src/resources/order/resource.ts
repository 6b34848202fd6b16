import * as pulumi from "@pulumi/pulumi";
import { providerText } from "../../program/provider-text.js";
import { refuseImportOption } from "../../program/resource-options.js";
import { warnIfApiKeyNotSecret } from "../../program/warnings.js";
import { orderJournalScope, watchJournalOrphans } from "../../program/journal.js";
import { stackJournalOfRun } from "../../program/run-journal.js";
import { quietRegistration } from "../../program/quiet-registration.js";
import { resourceUrnInput } from "../../program/resource-urn.js";
import { orderedNames } from "../../rules/names.js";
import { entries } from "../../schema/property.js";
import { ORDER_PROPERTIES } from "./declaration.js";
import type { OrderArgs, OrderProperties } from "./properties.generated.js";
import type { OrderPriceState } from "./state.js";
import { programInputs } from "./presentation.js";
import { expandPrice } from "../../money/stored-price.js";

export type { OrderArgs, OrderProperties } from "./properties.generated.js";

// The class's outputs are declared once, in the declaration; this merges their types into the class.
export interface Order extends OrderProperties {}

const ORDER_PROPERTY_NAMES = Object.keys(ORDER_PROPERTIES);
// Declared secret (companyInfo): the dynamic host takes no secrets, so the class marks them.
const ORDER_SECRET_INPUTS = entries(ORDER_PROPERTIES)
  .filter(([, p]) => p.secret === true)
  .map(([name]) => name);

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
    // Every declared property is registered (undefined when the program leaves it out), so each is an
    // Output at run time carrying what the provider reports: a default `check` filled in, the method applied.
    // Whatever else a plain-JavaScript program passes goes along too, so `check` can name a retired input.
    const props = {
      ...Object.fromEntries(ORDER_PROPERTY_NAMES.map((key) => [key, undefined])),
      ...args,
      ...programInputs(urn, orderJournalScope()),
      ...secretInputs(args),
    };
    using _registration = quietRegistration();
    // Secret as an input and as an output, however the program passed it.
    // After the stack's journal resource: it is in state before any purchase, and deleted after every Order.
    const journal = stackJournalOfRun();
    const secretOpts = pulumi.mergeOptions(opts, { additionalSecretOutputs: ORDER_SECRET_INPUTS, ...(journal ? { dependsOn: [journal] } : {}) });
    super(Order.__pulumiType, name, { ...props, __provider: providerText("order") }, secretOpts);
    watchJournalOrphans(this, urn);
    // State stores only the non-zero members of the price; readers get every member.
    (this as { price: pulumi.Output<OrderPriceState | undefined> }).price = this.price.apply(expandPrice);
    this.orderedNames = pulumi
      .all([args.domain, args.sanDomains ?? [], args.wildcardDomains ?? []])
      .apply(([domain, sanDomains, wildcardDomains]) => orderedNames({ domain, sanDomains, wildcardDomains }));
  }
}

/** The declared-secret inputs the program gave, each wrapped as a secret. */
function secretInputs(args: object): Record<string, unknown> {
  const given = args as Record<string, unknown>;
  return Object.fromEntries(ORDER_SECRET_INPUTS.filter((name) => given[name] !== undefined).map((name) => [name, pulumi.secret(given[name])]));
}
