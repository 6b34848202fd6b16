/**
 * Configuration of each guardrail: its TypeScript shape, its defaults and the
 * JSON schema the Pulumi CLI validates a `--policy-pack-config` file against.
 * Defaults are merged in code as well, so a rule never depends on the CLI
 * having applied the schema's `default`s.
 */
import type { PolicyConfigSchema } from "@pulumi/policy";
import { VERIFICATION_METHODS, emailSuffixOf } from "pulumi-certreseller";

/** The specification's method codes that are not e-mail (the default allow-list). */
const NON_EMAIL_METHODS = VERIFICATION_METHODS.filter((method) => emailSuffixOf(method) === undefined);

/** `certreseller-allowed-products`. Empty lists allow everything. */
export interface ProductsConfig {
  /** Product codes, exact or with `*` wildcards (`sectigo-*`). */
  allowedProductCodes: string[];
  /**
   * Brand codes. The Order declares no brand, so a brand is only checked when
   * the Order carries a `brandCode`; otherwise restrict brands through
   * product-code patterns.
   */
  allowedBrands: string[];
}

/** `certreseller-max-term`. */
export interface TermConfig {
  /** Longest term in months an Order may buy (`months`, else `years * 12`, else 12). */
  maxMonths: number;
}

/** `certreseller-max-order-price`. */
export interface OrderPriceConfig {
  /** Highest quoted price of one Order, in the account's currency. */
  maxOrderPrice: number;
  /**
   * Fail an Order that has no quoted price (the provider could not reach the
   * API at preview). Off by default: the price is then unknown, not too high.
   */
  requireQuotedPrice: boolean;
}

/** `certreseller-max-stack-price`. */
export interface StackPriceConfig {
  /** Highest sum of the prices of every Order declared in the stack. */
  maxStackPrice: number;
}

/** `certreseller-allowed-validation-methods`. */
export interface MethodsConfig {
  /**
   * Method codes (spec 4.5) an Order may set; the `email-…` methods are left
   * out by default.
   */
  allowedMethods: string[];
  /**
   * Fail an Order that sets no method. The service then applies the
   * product's default, which the product list does not name, so nothing at
   * preview can tell which method (possibly e-mail) the order will use.
   */
  requireExplicitMethod: boolean;
}

/** `certreseller-domain-allow-list`. */
export interface DomainsConfig {
  /**
   * Suffixes every ordered name must equal or end in (`example.com` allows
   * `example.com`, `www.example.com` and `*.example.com`). Empty allows all.
   */
  allowedSuffixes: string[];
}

/** `certreseller-wildcards`. */
export interface WildcardsConfig {
  /** Whether an Order may include `*.` names. */
  allowWildcards: boolean;
}

/** `certreseller-production-orders-protected`. */
export interface ProductionConfig {
  /** Stack tag names whose value marks a production stack. */
  productionTagNames: string[];
  /** Tag values (case-insensitive) that mean production. */
  productionTagValues: string[];
  /**
   * Treat this stack as production whatever its tags (set it in the stack's
   * policy config file where stack tags are not available, e.g. some DIY
   * backends).
   */
  treatAsProduction: boolean;
  /**
   * Resource names that are known to be kept on delete by `retainOnDelete`,
   * which policy packs cannot see (see the pack's README).
   */
  exemptResources: string[];
}

/** Policy names, as used in `--policy-pack-config` files. */
export const POLICY_NAMES = {
  products: "certreseller-allowed-products",
  term: "certreseller-max-term",
  orderPrice: "certreseller-max-order-price",
  stackPrice: "certreseller-max-stack-price",
  methods: "certreseller-allowed-validation-methods",
  domains: "certreseller-domain-allow-list",
  wildcards: "certreseller-wildcards",
  production: "certreseller-production-orders-protected",
} as const;

/** Every policy's configuration, by short key. */
export interface GuardrailsConfig {
  products: ProductsConfig;
  term: TermConfig;
  orderPrice: OrderPriceConfig;
  stackPrice: StackPriceConfig;
  methods: MethodsConfig;
  domains: DomainsConfig;
  wildcards: WildcardsConfig;
  production: ProductionConfig;
}

/** The defaults: permissive where a team must choose (products, domains), conservative on money and e-mail. */
export const DEFAULTS: GuardrailsConfig = {
  products: { allowedProductCodes: [], allowedBrands: [] },
  term: { maxMonths: 12 },
  orderPrice: { maxOrderPrice: 1000, requireQuotedPrice: false },
  stackPrice: { maxStackPrice: 5000 },
  methods: { allowedMethods: [...NON_EMAIL_METHODS], requireExplicitMethod: false },
  domains: { allowedSuffixes: [] },
  wildcards: { allowWildcards: true },
  production: {
    productionTagNames: ["environment", "env", "stage"],
    productionTagValues: ["production", "prod"],
    treatAsProduction: false,
    exemptResources: [],
  },
};

const stringList = (description: string, defaults: string[]) => ({
  type: "array" as const,
  items: { type: "string" as const },
  default: defaults,
  description,
});

export const SCHEMAS: Record<keyof typeof DEFAULTS, PolicyConfigSchema> = {
  products: {
    properties: {
      allowedProductCodes: stringList("Allowed product codes; `*` matches any run of characters. Empty: any.", DEFAULTS.products.allowedProductCodes),
      allowedBrands: stringList("Allowed brand codes (checked when an Order records its brandCode). Empty: any.", DEFAULTS.products.allowedBrands),
    },
  },
  term: {
    properties: {
      maxMonths: { type: "integer", minimum: 1, default: DEFAULTS.term.maxMonths, description: "Longest term in months." },
    },
  },
  orderPrice: {
    properties: {
      maxOrderPrice: { type: "number", minimum: 0, default: DEFAULTS.orderPrice.maxOrderPrice, description: "Highest quoted price per Order." },
      requireQuotedPrice: { type: "boolean", default: DEFAULTS.orderPrice.requireQuotedPrice, description: "Fail Orders without a quoted price." },
    },
  },
  stackPrice: {
    properties: {
      maxStackPrice: { type: "number", minimum: 0, default: DEFAULTS.stackPrice.maxStackPrice, description: "Highest sum of Order prices in the stack." },
    },
  },
  methods: {
    properties: {
      allowedMethods: {
        ...stringList("Allowed validation method codes (spec 4.5).", DEFAULTS.methods.allowedMethods),
        items: { type: "string", enum: [...VERIFICATION_METHODS] },
      },
      requireExplicitMethod: {
        type: "boolean",
        default: DEFAULTS.methods.requireExplicitMethod,
        description: "Fail Orders that set no method (the service then applies the product's default, unknown at preview).",
      },
    },
  },
  domains: {
    properties: {
      allowedSuffixes: stringList("Domain suffixes every ordered name must equal or end in. Empty: any.", DEFAULTS.domains.allowedSuffixes),
    },
  },
  wildcards: {
    properties: {
      allowWildcards: { type: "boolean", default: DEFAULTS.wildcards.allowWildcards, description: "Whether `*.` names may be ordered." },
    },
  },
  production: {
    properties: {
      productionTagNames: stringList("Stack tags whose value can mark production.", DEFAULTS.production.productionTagNames),
      productionTagValues: stringList("Values (case-insensitive) meaning production.", DEFAULTS.production.productionTagValues),
      treatAsProduction: { type: "boolean", default: DEFAULTS.production.treatAsProduction, description: "Treat the stack as production regardless of tags." },
      exemptResources: stringList("Order resource names kept by retainOnDelete (invisible to policies).", DEFAULTS.production.exemptResources),
    },
  },
};

/**
 * Merges a policy's configured values over its defaults (unknown keys are ignored).
 *
 * @example
 * ```ts
 * withDefaults(DEFAULTS.term, { maxMonths: 24 }); // { maxMonths: 24 }
 * ```
 */
export function withDefaults<T extends object>(defaults: T, configured: Partial<T> | undefined): T {
  const merged = { ...defaults };
  for (const [key, value] of Object.entries(configured ?? {})) {
    if (value !== undefined && key in defaults) (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}
