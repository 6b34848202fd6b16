/**
 * The one reading of what an Order costs, shared by the spend summary
 * (`summary.ts`, behind `certreseller-preview-money`) and the
 * `certreseller-guardrails` policy pack, so a purchase one of them counts
 * cannot be free to the other. Plain data in, plain data out; it loads
 * without @pulumi/pulumi, as the policy pack and the command need.
 */
import { isUnknown } from "../provider/unknown.js";

/**
 * Decimal strings ("199.00", what the API sends) and numbers both count;
 * anything else (the preview's unknown-value placeholder, `[secret]`) is unknown.
 *
 * @example
 * ```ts
 * parseMoney("199.00"); // 199
 * parseMoney("04da6b54-80e4-46f7-96ec-b56ff0331ba9"); // undefined
 * ```
 */
export function parseMoney(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

/**
 * - `buys`: a purchase at `price`;
 * - `adopts`: takes over an order bought before, so nothing is charged (whatever `price` says);
 * - `resumes`: takes into state the order a create that did not finish bought
 *   (the purchase journal holds it, `resumesOrderNo`), so nothing is charged now;
 * - `maybe-buys`: `adoptOrderNo` is set but not known at preview. If it resolves
 *   to an order number the Order adopts; if it resolves to `undefined` it buys
 *   at full price, so a cap must count it at `price` (the worst case).
 */
export type OrderMoneyKind = "buys" | "adopts" | "resumes" | "maybe-buys";

/** What an Order costs, as {@link readOrderMoney} reads it. */
export interface OrderMoney {
  kind: OrderMoneyKind;
  /**
   * The price it buys at: `quotedPrice` (which the provider's `check` adds at
   * preview), else the recorded `price.total` of an order already bought;
   * undefined when neither is known (no quote: API unreachable, or an input
   * computed by another resource).
   */
  price: number | undefined;
  /** For `adopts` through `adoptOrderNo`, and `resumes`: the order taken over. */
  orderNo?: string;
}

/** Marks a value not known at preview, whichever way it arrived. */
const UNKNOWN = Symbol("unknown");

/**
 * One field, with both shapes of "unknown at preview" folded into {@link UNKNOWN}:
 * the engine's placeholder string (preview steps, engine events) and the
 * policy analyzer's props proxy, which throws `UnknownValueError` on reading
 * one. The error is matched by name: this module must not load @pulumi/policy.
 */
function field(props: Record<string, unknown>, key: string): unknown {
  let value: unknown;
  try {
    value = props[key];
  } catch (error) {
    if (error instanceof Error && error.constructor.name === "UnknownValueError") return UNKNOWN;
    throw error;
  }
  return isUnknown(value) ? UNKNOWN : value;
}

/**
 * Reads what an Order costs from its inputs (a planned step's checked inputs,
 * or the props a policy sees) or its outputs (which repeat the inputs and add
 * `price` and `adopted`).
 *
 * @example
 * ```ts
 * readOrderMoney({ quotedPrice: "140.00" }); // { kind: "buys", price: 140 }
 * readOrderMoney({ adoptOrderNo: "CERT9", quotedPrice: "0.00" }); // { kind: "adopts", price: 0, orderNo: "CERT9" }
 * readOrderMoney({ resumesOrderNo: "CERT8", quotedPrice: "140.00" }); // { kind: "resumes", price: 140, orderNo: "CERT8" }
 * readOrderMoney({ adoptOrderNo: "04da6b54-80e4-46f7-96ec-b56ff0331ba9", quotedPrice: "900.00" });
 * // { kind: "maybe-buys", price: 900 }
 * ```
 */
export function readOrderMoney(props: Record<string, unknown> | undefined): OrderMoney {
  const values = props ?? {};
  const recorded = field(values, "price");
  const total = recorded !== null && typeof recorded === "object" ? field(recorded as Record<string, unknown>, "total") : undefined;
  const price = parseMoney(field(values, "quotedPrice")) ?? parseMoney(total);
  const adopt = field(values, "adoptOrderNo");
  if (typeof adopt === "string" && adopt.length > 0) return { kind: "adopts", price, orderNo: adopt };
  const resumes = field(values, "resumesOrderNo");
  if (typeof resumes === "string" && resumes.length > 0) return { kind: "resumes", price, orderNo: resumes };
  // An order already adopted (its state says so) is held whatever adoptOrderNo says now.
  if (field(values, "adopted") === true) return { kind: "adopts", price };
  if (adopt === UNKNOWN) return { kind: "maybe-buys", price };
  return { kind: "buys", price };
}
