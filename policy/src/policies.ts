/**
 * The guardrails as @pulumi/policy policies: thin adapters from the
 * analyzer's arguments to the plain rules in `rules/`.
 */
import type {
  EnforcementLevel,
  Policies,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationPolicy,
} from "@pulumi/policy";
import { DEFAULTS, POLICY_NAMES, SCHEMAS, withDefaults } from "./config";
import { isOrderType, readOrder, type OrderFacts } from "./order";
import { checkDomains } from "./rules/domains";
import { checkMethod } from "./rules/methods";
import { checkOrderPrice, checkStackPrice } from "./rules/price";
import { checkProductionGuard } from "./rules/production";
import { checkProduct } from "./rules/products";
import { checkTerm } from "./rules/term";
import { checkWildcards } from "./rules/wildcards";

type Key = keyof typeof DEFAULTS;

/** A resource policy that runs `rule` on every Order with the policy's merged config. */
function orderPolicy<K extends Key>(
  key: K,
  description: string,
  rule: (order: OrderFacts, config: (typeof DEFAULTS)[K]) => string[],
  enforcementLevel: EnforcementLevel = "mandatory",
): ResourceValidationPolicy {
  return {
    name: POLICY_NAMES[key],
    description,
    enforcementLevel,
    configSchema: SCHEMAS[key],
    validateResource: (args: ResourceValidationArgs, report: ReportViolation) => {
      if (!isOrderType(args.type)) return;
      const config = withDefaults(DEFAULTS[key], args.getConfig<Partial<(typeof DEFAULTS)[K]>>());
      for (const message of rule(readOrder(args.props), config)) report(message);
    },
  };
}

const stackPrice: StackValidationPolicy = {
  name: POLICY_NAMES.stackPrice,
  description: "Caps the sum of the prices of all certificate Orders in a stack.",
  enforcementLevel: "mandatory",
  configSchema: SCHEMAS.stackPrice,
  validateStack: (args, report) => {
    const config = withDefaults(DEFAULTS.stackPrice, args.getConfig<Partial<typeof DEFAULTS.stackPrice>>());
    const orders = args.resources
      .filter((r) => isOrderType(r.type))
      .map((r) => ({ name: r.name, order: readOrder(r.props) }));
    for (const message of checkStackPrice(orders, config)) report(message);
  },
};

const production: ResourceValidationPolicy = {
  name: POLICY_NAMES.production,
  description: "Warns when an Order in a production stack can be deleted (no protect / retainOnDelete).",
  enforcementLevel: "advisory",
  configSchema: SCHEMAS.production,
  validateResource: (args, report) => {
    if (!isOrderType(args.type)) return;
    const config = withDefaults(DEFAULTS.production, args.getConfig<Partial<typeof DEFAULTS.production>>());
    for (const message of checkProductionGuard({ name: args.name, protect: args.opts.protect }, args.stackTags, config)) {
      report(message);
    }
  },
};

/**
 * Every policy of the `certreseller-guardrails` pack.
 *
 * @example
 * ```ts
 * new PolicyPack("my-guardrails", { policies: [...policies, myOwnPolicy] });
 * ```
 */
export const policies: Policies = [
  orderPolicy("products", "Allows only the configured certificate products and brands.", (o, c) => checkProduct(o, c)),
  orderPolicy("term", "Caps the term (months) an Order may buy.", (o, c) => checkTerm(o, c)),
  orderPolicy("orderPrice", "Caps the quoted price of each certificate Order.", (o, c) => checkOrderPrice(o, c)),
  stackPrice,
  orderPolicy("methods", "Allows only the configured domain-validation methods (e-mail is off by default).", (o, c) => checkMethod(o, c)),
  orderPolicy("domains", "Allows certificates only for names under the configured domain suffixes.", (o, c) => checkDomains(o, c)),
  orderPolicy("wildcards", "Allows or forbids wildcard names.", (o, c) => checkWildcards(o, c)),
  production,
];
