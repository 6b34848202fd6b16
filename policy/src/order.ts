/**
 * What the guardrails read from an `Order`: a tolerant view of the resource's
 * inputs as the policy analyzer hands them over (plain JSON, secrets already
 * unwrapped), so each rule is a plain function testable without the engine.
 *
 * What an Order costs (bought, adopted, or maybe either) is read by the SDK's
 * `readOrderMoney`, the same reading `certreseller-preview-money` uses.
 * Imported from the money module alone: it loads without @pulumi/pulumi.
 */
import { parseMoney, readOrderMoney, type OrderMoneyKind } from "pulumi-certreseller/dist/money/index.js";

// The Order's type tokens (TypeScript's dynamic resource and the plugin's), declared once in the SDK.
export { ORDER_TYPE, PLUGIN_ORDER_TYPE, isOrderType } from "pulumi-certreseller/dist/money/index.js";

/**
 * The Order inputs the policies look at. Every field is optional and loosely
 * typed on purpose: the analyzer hands over whatever the program declared.
 */
export interface OrderProps {
  productCode?: unknown;
  brandCode?: unknown;
  domain?: unknown;
  sanDomains?: unknown;
  wildcardDomains?: unknown;
  years?: unknown;
  months?: unknown;
  verificationMethod?: unknown;
  quotedPrice?: unknown;
  price?: unknown;
  adoptOrderNo?: unknown;
  adopted?: unknown;
  [key: string]: unknown;
}

/** The normalised facts every rule works from. */
export interface OrderFacts {
  productCode: string | undefined;
  /** Only when the provider recorded it (the Order has no brand input). */
  brandCode: string | undefined;
  /** Main domain first, then SANs, then wildcard names, as declared. */
  names: string[];
  /** `months`, else `years * 12`, else the Order's default term (12). */
  months: number;
  /** Only a method the program set: an unset one is the product's default, unknown at preview. */
  verificationMethod: string | undefined;
  /**
   * What `up` will spend, from `quotedPrice` (added by the provider's `check`)
   * or, for an order already bought, the recorded `price.total`.
   */
  price: number | undefined;
  /**
   * `buys`, `adopts`, `resumes` (an interrupted run's order, from the purchase journal), or `maybe-buys` (`adoptOrderNo` unknown at preview: it
   * buys at `price` if the value resolves to nothing, so it counts as a purchase).
   */
  kind: OrderMoneyKind;
  /** An adopted order (`adoptOrderNo`, or `adopted` in its state) or one resumed from the purchase journal spends nothing: it was bought before. */
  adopted: boolean;
}

/** The Order's documented default term in months. */
export const DEFAULT_MONTHS = 12;

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.length > 0) : [];
}

/**
 * During preview the analyzer hands over a proxy that throws
 * `UnknownValueError` when a value computed by another resource is read.
 * Such a value is treated as absent here so the other rules still run; the
 * policies run again with known values during `up`.
 */
function known<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof Error && error.constructor.name === "UnknownValueError") return undefined;
    throw error;
  }
}

/**
 * Reads an Order's inputs (or its outputs, which repeat them) into
 * {@link OrderFacts}.
 *
 * @example
 * ```ts
 * readOrder({ productCode: "sandbox-dv-single", domain: "example.com", quotedPrice: "100.00" });
 * // { productCode: "sandbox-dv-single", names: ["example.com"], months: 12, price: 100, ... }
 * ```
 */
export function readOrder(props: OrderProps): OrderFacts {
  const main = known(() => str(props.domain));
  const whole = (value: unknown) => (typeof value === "number" ? value : parseMoney(value));
  const months = whole(known(() => props.months));
  const years = whole(known(() => props.years));
  const money = readOrderMoney(props);
  return {
    productCode: known(() => str(props.productCode)),
    brandCode: known(() => str(props.brandCode)),
    names: [
      ...(main ? [main] : []),
      ...(known(() => strings(props.sanDomains)) ?? []),
      ...(known(() => strings(props.wildcardDomains)) ?? []),
    ],
    months: months ?? (years !== undefined ? years * 12 : DEFAULT_MONTHS),
    verificationMethod: known(() => str(props.verificationMethod)),
    price: money.price,
    kind: money.kind,
    adopted: money.kind === "adopts" || money.kind === "resumes",
  };
}

/**
 * True for `*.example.com`-style names.
 *
 * @example
 * ```ts
 * isWildcard("*.example.com"); // true
 * ```
 */
export function isWildcard(name: string): boolean {
  return name.startsWith("*.");
}
