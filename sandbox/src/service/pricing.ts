import type { Product } from "../catalogue/types.js";
import { badRequest, forbidden } from "../errors.js";
import type { AccountRecord, PriceBreakdown } from "../store/types.js";
import { formatMoney, type Cents } from "../util/money.js";
import type { Names } from "./domain-rules.js";
import { oneOf, optionalInt, optionalString, type Body } from "./fields.js";

/** Coupons the sandbox knows: a percentage off the total. */
const COUPON_CODES: Record<string, number> = { SANDBOX10: 10, WELCOME20: 20 };
const COUPON_IDS: Record<number, number> = { 1: 10, 2: 20 };

export function readDiscountPercent(body: Body): number {
  const type = optionalString(body, "coupon_type");
  const code = optionalString(body, "coupon_code");
  const id = optionalInt(body, "coupon_id");
  if (type === undefined && code === undefined && id === undefined) return 0;
  const kind = type ?? (code !== undefined ? "code" : "coupon");
  oneOf("coupon_type", kind, ["coupon", "code"] as const);
  if (kind === "code") {
    if (code === undefined) throw badRequest("coupon_code", "coupon_code is required when coupon_type is code");
    const pct = COUPON_CODES[code.toUpperCase()];
    if (pct === undefined) throw badRequest("coupon_code", `coupon_code ${JSON.stringify(code)} is not a valid coupon`);
    return pct;
  }
  if (id === undefined) throw badRequest("coupon_id", "coupon_id (integer) is required when coupon_type is coupon");
  const pct = COUPON_IDS[id];
  if (pct === undefined) throw badRequest("coupon_id", `coupon_id ${id} is not a valid coupon`);
  return pct;
}

export function priceFor(product: Product, months: number, names: Names, discountPercent: number): PriceBreakdown {
  const term = product.terms.find((t) => t.months === months)!;
  const sanCount = names.san.length;
  const wildcardCount = names.wildcards.length;
  // The base price covers the main name only, whatever its kind.
  const gross = term.price + sanCount * term.sanPrice + wildcardCount * term.wildcardPrice;
  const discount = Math.round((gross * discountPercent) / 100);
  return {
    basePrice: term.price, sanCount, sanPrice: term.sanPrice, wildcardCount, wildcardPrice: term.wildcardPrice,
    discount, total: gross - discount,
  };
}

/** The management API's view of a price (decimal strings, the sandbox's own shape). */
export function renderPrice(p: PriceBreakdown): Record<string, unknown> {
  return {
    base_price: formatMoney(p.basePrice),
    san_count: p.sanCount, san_price: formatMoney(p.sanPrice), san_total: formatMoney(p.sanCount * p.sanPrice),
    wildcard_count: p.wildcardCount, wildcard_price: formatMoney(p.wildcardPrice),
    wildcard_total: formatMoney(p.wildcardCount * p.wildcardPrice),
    discount: formatMoney(p.discount), total: formatMoney(p.total),
  };
}

/** Takes the money, or explains which of balance/credit is short. Never mixes the two. */
export function charge(account: AccountRecord, method: "balance" | "credit", total: Cents): void {
  if (account.status === 0) throw forbidden("account is banned");
  if (method === "balance") {
    if (account.balance < total) {
      throw badRequest("payment_method", `insufficient balance: the order costs ${formatMoney(total)}, the balance is ${formatMoney(account.balance)} (payment_method balance does not draw on credit)`);
    }
    account.balance -= total;
  } else {
    const available = account.creditLimit - account.creditUsed;
    if (available < total) {
      throw badRequest("payment_method", `insufficient credit: the order costs ${formatMoney(total)}, available credit is ${formatMoney(available)} (payment_method credit does not draw on the balance)`);
    }
    account.creditUsed += total;
  }
}

