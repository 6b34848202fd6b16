import { describeError } from "../client/describe-error.js";
import type { Money, Product } from "../client/types.js";
import { catalogueForPurchase, isUnknown, resourceName, settingAtFault, type ProviderContext } from "../provider/index.js";
import type { RuleFailure } from "../rules/failure.js";

/** What an Order's rules say of its inputs against one product: what they refuse, and the price they quote. */
export interface ProductVerdict {
  failures: readonly RuleFailure[];
  quote?: { total: Money };
}

/** The inputs a purchase is priced from. */
export interface UnpricedPurchase {
  /** The price `check` quoted at preview; absent (or unknown) when it could not. */
  quotedPrice?: unknown;
  productCode: string;
  /** Names the Order in messages and the log. */
  journalKey: string;
}

/**
 * The price a purchase is made at. `check` quotes it at preview from the
 * product list; when that read failed, `quotedPrice` is absent and `up`
 * must not buy blind: this reads the catalogue again and applies the
 * Order's rules (`judge`, the same `check` runs). Throws, before anything
 * is bought, when the product or a rule refuses the order or no price can
 * be computed.
 *
 * @example
 * const quotedPrice = await priceBeforeBuying(ctx, inputs, (product) => checkOrder(values, new Set(), product)); // "140.00"
 */
export async function priceBeforeBuying(
  ctx: ProviderContext,
  inputs: UnpricedPurchase,
  judge: (product: Product) => Promise<ProductVerdict>,
): Promise<string> {
  if (typeof inputs.quotedPrice === "string" && !isUnknown(inputs.quotedPrice)) return inputs.quotedPrice;
  const stop = (why: string, cause?: unknown, advice = "run `pulumi up` again once the product list can be read") =>
    new Error(
      `certreseller Order "${resourceName(inputs.journalKey)}": nothing was bought: ${why}. ` +
        `An order is bought only at a price computed from the catalogue; ${advice}.`,
      cause === undefined ? undefined : { cause },
    );
  let product;
  try {
    product = (await catalogueForPurchase(ctx.api())).find((p) => p.productCode === inputs.productCode);
  } catch (error) {
    const why = `no price was quoted at preview and the product list could not be read now either (${describeError(error)})`;
    // Waiting mends an outage, not a setting: name the setting instead.
    const fault = settingAtFault(error, ctx.settings.baseUrl);
    throw fault ? stop(why, error, `${fault.reason}; then run \`pulumi up\` again`) : stop(why, error);
  }
  if (!product) throw stop(`${JSON.stringify(inputs.productCode)} is not in this account's product list`);
  const result = await judge(product);
  if (result.failures.length > 0) {
    throw stop(`the product refuses this order: ${result.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
  }
  if (!result.quote) throw stop(`no price could be computed for ${inputs.productCode} from the product list`);
  ctx.log(inputs.journalKey).info(`no price was quoted at preview; quoted ${result.quote.total} from the product list before buying`);
  return result.quote.total;
}
