/**
 * What every purchase passes right before CreateOrder, whichever way `up`
 * came to buy: a new Order, a changed input, a renewal replacement at the
 * end of the term, `--replace`, `replaceOnChanges`, a change of provider.
 * Preview (`check.ts`) runs the same CAA check, but only for a changed
 * input: the others buy without one.
 */
import type { Product } from "../../client/types.js";
import { findProduct, resourceName, type ProviderContext } from "../../provider/index.js";
import { systemDns, type DnsDeps } from "../shared/dns-checks.js";
import { checkCaa, type OrderedName } from "./caa.js";
import { warnIfUnaffordable } from "./check.js";
import type { OrderInputs } from "./inputs.js";

/** Each ordered name with the input that holds it (a refusal names that input). */
function orderedNamesOf(inputs: OrderInputs): OrderedName[] {
  const list = (property: "sanDomains" | "wildcardDomains") => (inputs[property] ?? []).map((name) => ({ property, name }));
  return [{ property: "domain", name: inputs.domain }, ...list("sanDomains"), ...list("wildcardDomains")];
}

/**
 * Throws, before anything is bought, when a name's CAA records refuse the
 * product's CA (the same text as the preview's failure, one line per name);
 * warns, as the preview does, when the price exceeds what the account has
 * available (the API would then refuse, charging nothing). What cannot be
 * checked (no DNS answer, an unknown brand) is a warning, as at preview.
 *
 * @example
 * await checkBeforeBuying(ctx, inputs); // then recordIntent, then CreateOrder
 */
export async function checkBeforeBuying(ctx: ProviderContext, inputs: OrderInputs, dns: DnsDeps = systemDns): Promise<void> {
  const log = ctx.log(inputs.journalKey);
  let product: Product | undefined;
  try {
    product = await findProduct(ctx.api(), inputs.productCode);
  } catch {
    // The brand stays unknown: checkCaa says what it could not check. The price was read before this.
  }
  const refusals = await checkCaa(dns, ctx.settings, log, {
    names: orderedNamesOf(inputs),
    productCode: inputs.productCode,
    brandCode: product?.brandCode ?? undefined,
    productKnown: product !== undefined,
    caaCheck: inputs.caaCheck,
    caaIssuerDomains: inputs.caaIssuerDomains,
    verificationMethod: inputs.verificationMethod,
  });
  if (refusals.length > 0) {
    throw new Error(
      `certreseller Order "${resourceName(inputs.journalKey)}": nothing was bought: the CAA records of ${refusals.length === 1 ? "a name" : "names"} ` +
        `refuse the product's CA, checked before CreateOrder:\n${refusals.map((r) => `  ${r.property}: ${r.reason}`).join("\n")}`,
    );
  }
  if (inputs.quotedPrice) await warnIfUnaffordable(ctx, log, inputs as unknown as Record<string, unknown>, inputs.quotedPrice);
}
