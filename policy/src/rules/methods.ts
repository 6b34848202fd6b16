import type { MethodsConfig } from "../config";
import type { OrderFacts } from "../order";

/**
 * Violations of the validation-method allow-list. Only a method the program
 * sets is judged: an Order without one gets the product's default from the
 * service, and the product list does not say which that is, so it cannot
 * be judged at preview (`requireExplicitMethod` fails such Orders instead).
 *
 * @example
 * ```ts
 * checkMethod(readOrder({ verificationMethod: "email-admin" }), { allowedMethods: ["dns"], requireExplicitMethod: false });
 * // ['verificationMethod "email-admin" is not allowed (allowed: dns).']
 * ```
 */
export function checkMethod(order: OrderFacts, config: MethodsConfig): string[] {
  const allowed = config.allowedMethods;
  if (!order.verificationMethod) {
    return config.requireExplicitMethod
      ? [
          "verificationMethod is not set: the service then applies the product's default, which cannot be known at preview " +
            `(it may be e-mail); set one of: ${allowed.join(", ")}.`,
        ]
      : [];
  }
  return allowed.includes(order.verificationMethod.toLowerCase())
    ? []
    : [`verificationMethod "${order.verificationMethod}" is not allowed (allowed: ${allowed.join(", ")}).`];
}
