import type { ProductsConfig } from "../config";
import type { OrderFacts } from "../order";

/**
 * `*` in a pattern matches any run of characters; everything else is literal (case-insensitive).
 *
 * @example
 * ```ts
 * matchesPattern("sandbox-dv-multi", "sandbox-dv-*"); // true
 * ```
 */
export function matchesPattern(value: string, pattern: string): boolean {
  const escaped = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(".*")}$`, "i").test(value);
}

/**
 * Violations of the product and brand allow-lists.
 *
 * @example
 * ```ts
 * checkProduct(readOrder({ productCode: "sandbox-ev-multi" }), { allowedProductCodes: ["sandbox-dv-*"], allowedBrands: [] });
 * // ['productCode "sandbox-ev-multi" is not an allowed product (allowed: sandbox-dv-*).']
 * ```
 */
export function checkProduct(order: OrderFacts, config: ProductsConfig): string[] {
  const problems: string[] = [];
  const codes = config.allowedProductCodes;
  if (codes.length > 0) {
    if (!order.productCode) {
      problems.push(`productCode is missing; allowed products: ${codes.join(", ")}.`);
    } else if (!codes.some((pattern) => matchesPattern(order.productCode!, pattern))) {
      problems.push(`productCode "${order.productCode}" is not an allowed product (allowed: ${codes.join(", ")}).`);
    }
  }
  const brands = config.allowedBrands;
  if (brands.length > 0 && order.brandCode && !brands.some((b) => b.toLowerCase() === order.brandCode!.toLowerCase())) {
    problems.push(`brand "${order.brandCode}" of product "${order.productCode ?? "?"}" is not an allowed brand (allowed: ${brands.join(", ")}).`);
  }
  return problems;
}
