import type * as pulumi from "@pulumi/pulumi";
import { isPartnerApiError } from "../../client/errors.js";
import type { Product } from "../../client/types.js";
import { findProduct, isUnknown, settingAtFault, type ProviderContext, type ProviderLog } from "../../provider/index.js";
import { productCatalogue, nearestProductCodes } from "../../provider/product-catalogue.js";
import { toCents } from "../../money/price.js";
import { checkOrder } from "./purchase-rules.js";
import type { OrderInputValues } from "./properties.generated.js";
import { systemDns, type DnsDeps } from "../shared/dns-checks.js";
import { journalEntryKey, openJournal, resolveJournal, type JournalSettings } from "../../journal/index.js";
import { accountSummary } from "./account.js";
import { checkCaa, type OrderedName } from "./caa.js";
import { REPLACE_KEYS, sameInput, type InputRecord, type OrderInputs } from "./inputs.js";
import { normalizeOrder } from "./normalize.js";
import { planFromJournal, type JournalPlan } from "./resume.js";
import { noteDeclaredOrder } from "../shared/declared-orders.js";

/**
 * Preview-time truth: normalise, run every rule, price the purchase, and
 * for a new purchase check the names' CAA records and log what it buys.
 * Never spends anything. When the catalogue cannot be read because of an
 * outage, the local rules still run and one warning says what was not
 * checked; when the configuration is at fault (no key, a refused key, a
 * base URL that is not the API), the check of a purchase fails naming the
 * setting (an unchanged Order only warns). `dns`
 * is how the CAA check reaches the DNS (tests pass a scripted one).
 */
export async function check(
  ctx: ProviderContext,
  olds: Partial<OrderInputs>,
  rawNews: OrderInputs,
  dns: DnsDeps = systemDns,
): Promise<pulumi.dynamic.CheckResult<OrderInputs>> {
  // Raw engine inputs: any member may be the preview placeholder or of a wrong type.
  const news = rawNews as unknown as Record<string, unknown>;
  const log = ctx.log(typeof news.journalKey === "string" && !isUnknown(news.journalKey) ? news.journalKey : undefined);
  // The stack journal's preview names only the entries of resources no Order of the run declares.
  if (typeof news.journalKey === "string" && !isUnknown(news.journalKey)) noteDeclaredOrder(news.journalKey);
  const { values, unknown, rejected, failures } = normalizeOrder(news);
  let product: Product | undefined;
  let catalogueRead = false;
  const productCode = values.productCode;
  if (typeof productCode === "string" && !unknown.has("productCode")) {
    try {
      product = await findProduct(ctx.api(), productCode);
      catalogueRead = true;
      if (!product) failures.push({ property: "productCode", reason: unknownProductReason(productCode, await productCatalogue(ctx.api())) });
    } catch (error) {
      const fault = settingAtFault(error, ctx.settings.baseUrl);
      if (fault && buysAgain(olds, values)) {
        // A configuration error does not mend by itself: a purchase could only stop at the same place in `up`.
        failures.push({ property: "", reason: `could not read the product list: ${fault.reason}. Nothing is bought until the product list can be read.` });
      } else if (fault) {
        // This Order buys nothing now; what needs the API (refresh, destroy) says what it could not do.
        log.warn(`could not read the product list (${fault.reason}); this Order buys nothing in this update`);
      } else {
        const why = isPartnerApiError(error) ? `${error.kind}: ${error.message}` : (error as Error).message;
        log.warn(
          `could not read the product list (${why}); checked the names and fields locally, but NOT the domain type, ` +
            `name counts, term, algorithms, company requirement or price of ${productCode}`,
        );
      }
    }
  }
  // A refused input already has its failure: the rules that need it are skipped like an unknown one.
  const result = await checkOrder(values as unknown as OrderInputValues, new Set([...unknown, ...rejected]), product);
  failures.push(...result.failures);
  for (const warning of result.warnings) log.warn(warning);
  const inputs = values;
  if (typeof inputs.adoptOrderNo === "string" && !unknown.has("adoptOrderNo")) {
    inputs.quotedPrice = "0.00"; // adoption buys nothing
  } else if (result.quote) inputs.quotedPrice = result.quote.total;
  // A purchase reads the journal as its create will: it may resume an interrupted run's order, or stop.
  const plan = inputs.adoptOrderNo === undefined && !unknown.has("adoptOrderNo") && buysAgain(olds, inputs) ? await journalPlanFor(ctx, olds, inputs, unknown) : undefined;
  if (plan?.kind === "stop") failures.push({ property: "", reason: `\`up\` will stop before buying: ${plan.message}` });
  if (plan?.kind === "resume") {
    inputs.resumesOrderNo = plan.entry.orderNo;
    log.info(
      `will resume order ${plan.entry.orderNo} (${plan.entry.productCode}, bought by a run that did not finish, at ${plan.entry.orderedAt}): nothing is bought`,
    );
  }
  if (plan?.kind === "buy" && plan.forget) {
    log.info(`the purchase journal names order ${plan.forget.orderNo}, which the API shows cancelled, refunded or gone: \`up\` forgets it and buys`);
  }
  const names = caaNames(inputs, unknown, failures);
  if (names && inputs.adoptOrderNo === undefined && plan?.kind !== "resume" && (catalogueRead ? product !== undefined : true) && buysAgain(olds, inputs)) {
    const refusals = await checkCaa(dns, ctx.settings, log, {
      names,
      productCode: String(productCode),
      brandCode: product?.brandCode ?? undefined,
      productKnown: product !== undefined,
      caaCheck: inputs.caaCheck as boolean | undefined,
      caaIssuerDomains: inputs.caaIssuerDomains as string[] | undefined,
      verificationMethod: inputs.verificationMethod as string | undefined,
    });
    failures.push(...refusals);
  }
  if (result.quote && failures.length === 0 && inputs.adoptOrderNo === undefined && plan?.kind !== "resume" && buysAgain(olds, inputs)) {
    // The plan's one line of money: a plain preview shows it (a no-change preview does not buy, so says nothing).
    log.info(
      `will buy ${String(productCode)}${typeof inputs.months === "number" ? ` (${inputs.months} months)` : ""}${names ? ` for ${names.map((n) => n.name).join(", ")}` : ""}: ` +
        `${result.quote.total} (${journalWhere(ctx.settings)})`,
    );
    await warnIfUnaffordable(ctx, log, inputs, result.quote.total);
  }
  return { inputs: inputs as unknown as OrderInputs, failures };
}

/**
 * An unknown product code, with the nearest codes of the catalogue just
 * read (a typo is the usual cause) and where the whole list is.
 *
 * @example
 * unknownProductReason("sandbox-dv-singel", catalogue)
 * // '"sandbox-dv-singel" is not in this account's product list; nearest: sandbox-dv-single. List the products with getProducts() …'
 */
function unknownProductReason(productCode: string, catalogue: readonly Product[]): string {
  const nearest = nearestProductCodes(catalogue, productCode);
  return (
    `${JSON.stringify(productCode)} is not in this account's product list` +
    (nearest.length > 0 ? `; nearest: ${nearest.join(", ")}` : "") +
    `. List the products with getProducts() (in YAML, Go, Python or C#: the certreseller:index:getProducts function)`
  );
}

/**
 * The names the CAA check looks up, each with the input that holds it; none
 * while a name or a CAA input is unknown (preview) or a name was refused
 * (its failure says why; a lookup of a malformed name says nothing more).
 */
function caaNames(inputs: Record<string, unknown>, unknown: ReadonlySet<string>, failures: readonly { property: string }[]): OrderedName[] | undefined {
  const keys = ["domain", "sanDomains", "wildcardDomains", "caaCheck", "caaIssuerDomains", "productCode", "verificationMethod"];
  if (keys.some((key) => unknown.has(key)) || typeof inputs.domain !== "string") return undefined;
  if (failures.some((f) => ["domain", "sanDomains", "wildcardDomains", "caaIssuerDomains", "caaCheck"].includes(f.property.split(/[.[]/)[0]!))) return undefined;
  const list = (key: "sanDomains" | "wildcardDomains") => (Array.isArray(inputs[key]) ? (inputs[key] as string[]) : []).map((name) => ({ property: key, name }));
  return [{ property: "domain", name: inputs.domain }, ...list("sanDomains"), ...list("wildcardDomains")];
}

/**
 * What a create of this Order will do about the purchase journal
 * (`planFromJournal`), as a stop when the journal or the evidence about its
 * order cannot be read: the create would stop there too. Undefined while the
 * journal key or a purchase input is unknown (a preview before the URN or a
 * computed input is known). The plugin's check already stops on entries
 * written under no organisation, so they are not read twice.
 */
async function journalPlanFor(ctx: ProviderContext, olds: Partial<OrderInputs>, inputs: Record<string, unknown>, unknown: ReadonlySet<string>): Promise<JournalPlan | undefined> {
  if (typeof inputs.journalKey !== "string" || isUnknown(inputs.journalKey) || unknown.size > 0) return undefined;
  const order = inputs as unknown as OrderInputs;
  let journal;
  try {
    journal = openJournal(ctx.settings);
    const old = (olds ?? {}) as unknown as InputRecord;
    return await planFromJournal(ctx, order, journal, journalEntryKey(order), { unscoped: false, replacing: Object.keys(old).length > 0 ? old : undefined });
  } catch (error) {
    return {
      kind: "stop",
      message:
        `the purchase journal ${journal?.location ?? "(its setting could not be read)"} or the order it names could not be read (${(error as Error).message}), ` +
        "and a create reads it before buying. Nothing is bought until it can be read.",
    };
  }
}

/**
 * Only a purchase needs the funds: an existing order whose purchase inputs
 * are unchanged (`olds` are the old inputs here) costs nothing more.
 */
function buysAgain(olds: Partial<OrderInputs>, news: Record<string, unknown>): boolean {
  const old = (olds ?? {}) as Record<string, unknown>;
  if (Object.keys(old).length === 0) return true;
  return REPLACE_KEYS.some((key) => key !== "adoptOrderNo" && !sameInput(key, old[key], news[key], old, news));
}

/**
 * A truthful preview says when `up` would be refused for lack of funds. A
 * warning, not a failure: the account may be topped up before `up`, and the
 * total across several Orders of a stack is the policy pack's business.
 */
export async function warnIfUnaffordable(ctx: ProviderContext, log: ProviderLog, inputs: Record<string, unknown>, total: string): Promise<void> {
  try {
    const { account } = await accountSummary(ctx.api());
    const credit = inputs.paymentMethod === "credit";
    const available = credit ? account.creditAvailable : account.balance;
    if (toCents(total) > toCents(available)) {
      log.warn(
        `this order costs ${total} but the account has ${available} available on its ${credit ? "credit line" : "balance"}: ` +
          "`pulumi up` would be refused (nothing is charged then)",
      );
    }
  } catch {
    // Only a hint: the product list already answered, so a failure here is not worth a second warning.
  }
}

/**
 * Where the purchase will be journaled, for the preview's "will buy" line:
 * the folder or bucket (its options left out), and "beside the state" when
 * no setting named it and the backend is a bucket.
 */
function journalWhere(settings: JournalSettings): string {
  try {
    const resolved = resolveJournal(settings);
    if (!resolved.url) return `purchase journal ${resolved.dir}`;
    return `purchase journal ${resolved.url.replace(/\?.*$/, "")}${settings.journalUrl ? "" : ", beside the state"}`;
  } catch {
    return "purchase journal location unreadable";
  }
}
