import type * as pulumi from "@pulumi/pulumi";
import { isPartnerApiError } from "../../client/errors.js";
import type { Product } from "../../client/types.js";
import { accountSummary, findProduct, isUnknown, type ProviderContext, type ProviderLog } from "../../provider/index.js";
import { checkOrder, toCents } from "../../rules/index.js";
import { REPLACE_KEYS, type OrderInputs } from "./types.js";

/**
 * Preview-time truth: normalise, run every rule, price the purchase. Never
 * spends anything. When the catalogue cannot be read, the local rules still
 * run and one warning says what was not checked.
 */
export async function check(
  ctx: ProviderContext,
  olds: Partial<OrderInputs>,
  rawNews: OrderInputs,
): Promise<pulumi.dynamic.CheckResult<OrderInputs>> {
  // Raw engine inputs: any member may be the preview placeholder or of a wrong type.
  const news = rawNews as unknown as Record<string, unknown>;
  const log = ctx.log(typeof news.journalKey === "string" && !isUnknown(news.journalKey) ? news.journalKey : undefined);
  let product: Product | undefined;
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const productCode = news.productCode;
  if (typeof productCode === "string" && productCode.trim() !== "" && !isUnknown(productCode)) {
    try {
      product = await findProduct(ctx.api(), productCode.trim());
      if (!product) failures.push({ property: "productCode", reason: `${JSON.stringify(productCode)} is not in this account's product list` });
    } catch (error) {
      const why = isPartnerApiError(error) ? `${error.kind}: ${error.message}` : (error as Error).message;
      log.warn(
        `could not read the product list (${why}); checked the names and fields locally, but NOT the domain type, ` +
          `term, algorithms, verification method, company requirement or price of ${productCode}`,
      );
    }
  }
  const result = await checkOrder({ ...news, quotedPrice: undefined }, product);
  failures.push(...result.failures);
  const inputs = { ...result.values } as Record<string, unknown>;
  if (typeof inputs.adoptOrderNo === "string" && !isUnknown(inputs.adoptOrderNo)) {
    inputs.quotedPrice = "0.00"; // adoption buys nothing
  } else if (result.quote) inputs.quotedPrice = result.quote.total;
  else delete inputs.quotedPrice;
  // Only for a purchase: an existing order whose purchase inputs are unchanged costs nothing more.
  const buys =
    Object.keys(olds ?? {}).length === 0 || REPLACE_KEYS.some((key) => JSON.stringify(olds[key] ?? null) !== JSON.stringify(inputs[key] ?? null));
  if (result.quote && failures.length === 0 && inputs.adoptOrderNo === undefined && buys) await warnIfUnaffordable(ctx, log, inputs, result.quote.total);
  return { inputs: inputs as unknown as OrderInputs, failures };
}

/**
 * A truthful preview says when `up` would be refused for lack of funds. A
 * warning, not a failure: the account may be topped up before `up`, and the
 * total across several Orders of a stack is the policy pack's business.
 */
async function warnIfUnaffordable(ctx: ProviderContext, log: ProviderLog, inputs: Record<string, unknown>, total: string): Promise<void> {
  try {
    const { user } = await accountSummary(ctx.api());
    const credit = inputs.paymentMethod === "credit";
    const available = credit ? (user.creditAvailable ?? "0.00") : user.balance;
    if (toCents(total) > toCents(available)) {
      log.warn(
        `this order costs ${total} ${user.currency ?? ""}`.trimEnd() +
          ` but the account has ${available} available on its ${credit ? "credit line" : "balance"}: \`pulumi up\` would be refused (nothing is charged then)`,
      );
    }
  } catch {
    // Only a hint: the product list already answered, so a failure here is not worth a second warning.
  }
}
