import type { ProductionConfig } from "../config";

/** What the production rule needs to know about one Order resource. */
export interface DeletionGuard {
  name: string;
  protect: boolean;
}

/**
 * Whether the stack's tags (or the config) mark it as production.
 *
 * @example
 * ```ts
 * isProductionStack(new Map([["environment", "prod"]]), DEFAULTS.production); // true
 * ```
 */
export function isProductionStack(tags: ReadonlyMap<string, string>, config: ProductionConfig): boolean {
  if (config.treatAsProduction) return true;
  const values = config.productionTagValues.map((v) => v.toLowerCase());
  return config.productionTagNames.some((tag) => {
    const value = tags.get(tag);
    return value !== undefined && values.includes(value.toLowerCase());
  });
}

/**
 * Advisory: in production a `pulumi destroy` or an accidental removal cancels
 * a paid order (and refunds it only inside the refund window). `protect`
 * blocks that; `retainOnDelete` is invisible to policy packs, hence the
 * exemption list.
 *
 * @example
 * ```ts
 * checkProductionGuard({ name: "site", protect: false }, new Map([["env", "production"]]), DEFAULTS.production);
 * // ['Order "site" in a production stack can be deleted, ...']
 * ```
 */
export function checkProductionGuard(
  resource: DeletionGuard,
  tags: ReadonlyMap<string, string>,
  config: ProductionConfig,
): string[] {
  if (!isProductionStack(tags, config) || resource.protect || config.exemptResources.includes(resource.name)) return [];
  return [
    `Order "${resource.name}" in a production stack can be deleted, which cancels the paid order. ` +
      `Set the resource option protect: true or retainOnDelete: true (policies cannot see retainOnDelete: ` +
      `list the resource in exemptResources once it is set).`,
  ];
}
