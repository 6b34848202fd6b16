import type { MethodsConfig } from "../config";
import type { OrderFacts } from "../order";

/**
 * Violations of the validation-method allow-list.
 *
 * @example
 * ```ts
 * checkMethod(readOrder({ verificationMethod: "email" }), { allowedMethods: ["dns"], requireExplicitMethod: false });
 * // ['verificationMethod "email" is not allowed (allowed: dns).']
 * ```
 */
export function checkMethod(order: OrderFacts, config: MethodsConfig): string[] {
  const allowed = config.allowedMethods;
  if (!order.verificationMethod) {
    return config.requireExplicitMethod
      ? [`verificationMethod is not set (the product default could not be read), so it may be e-mail; set one of: ${allowed.join(", ")}.`]
      : [];
  }
  return allowed.includes(order.verificationMethod.toLowerCase())
    ? []
    : [`verificationMethod "${order.verificationMethod}" is not allowed (allowed: ${allowed.join(", ")}).`];
}
