import type * as pulumi from "@pulumi/pulumi";

/**
 * The parts of an `Order` a Validation follows. Any `Order` resource fits;
 * typed structurally so Validation does not depend on Order's module.
 *
 * @example
 * ```ts
 * const order: OrderLike = new certs.Order("site", { productCode: "sandbox-dv-single", domain: "example.com" });
 * ```
 */
export interface OrderLike {
  /** An Order's resource id: its order number (known in a preview of an in-place update of the Order). */
  readonly id?: pulumi.Output<string>;
  readonly orderNo: pulumi.Output<string>;
  readonly domain: pulumi.Output<string>;
  readonly sanDomains: pulumi.Output<string[] | undefined>;
  readonly wildcardDomains: pulumi.Output<string[] | undefined>;
  readonly verificationMethod: pulumi.Output<string | undefined>;
  readonly requestId: pulumi.Output<string | undefined>;
  /**
   * Every ordered name, main first, built from the Order's arguments (an
   * `Order` has it). Used instead of the three name outputs when present: the
   * same names, with no dependency entry per input on the Order's outputs.
   */
  readonly orderedNames?: pulumi.Output<string[]>;
}
