import type * as pulumi from "@pulumi/pulumi";
import { journalEntryKey, openJournal } from "../../journal/index.js";
import { resourceName, toPlainJson, type ProviderContext } from "../../provider/index.js";
import { systemDns, type DnsDeps } from "../shared/dns-checks.js";
import { adoptDeclared } from "./adopt.js";
import { buy } from "./buy.js";
import type { OrderInputs } from "./inputs.js";
import { resumeJournaled } from "./resume.js";
import { ensureSubmitted } from "./sign.js";
import type { OrderState } from "./state.js";

/**
 * An Order's create: the order the program names (`adoptOrderNo`) is
 * adopted; else a purchase the journal holds for this resource is resumed;
 * else one is bought (CreateOrder, never retried). Then ApplySign. The
 * purchase journal makes a killed or interrupted create safe to run again.
 * `dns` is how the CAA check before buying reaches the DNS (tests pass a
 * scripted one).
 */
export async function create(ctx: ProviderContext, checked: OrderInputs, dns: DnsDeps = systemDns): Promise<pulumi.dynamic.CreateResult<OrderState>> {
  // What the preview planned is said again by the journal now: create reads it afresh.
  const { resumesOrderNo: planned, ...inputs } = checked;
  const api = ctx.api();
  const journal = openJournal(ctx.settings);
  const key = journalEntryKey(inputs);
  const held = inputs.adoptOrderNo ? await adoptDeclared(ctx, inputs, inputs.adoptOrderNo, journal, key) : await resumeJournaled(ctx, inputs, journal, key);
  if (planned !== undefined && held === undefined) {
    // The preview (and any spend cap read from it) counted this Order as no charge: never spend where it said so.
    throw new Error(
      `certreseller Order "${resourceName(inputs.journalKey)}": the preview planned to resume order ${planned} from the purchase journal (no charge), ` +
        "but the journal or the API now says otherwise (see the lines above). Nothing was bought: run `pulumi preview` again to see what `pulumi up` will spend.",
    );
  }
  const { state, inputs: used } = held ? { state: held, inputs } : await buy(ctx, inputs, journal, key, dns);
  try {
    const submitted = await ensureSubmitted(api, state, used, { justBought: !held });
    return { id: submitted.orderNo, outs: toPlainJson(submitted) as unknown as OrderState };
  } finally {
    // Success or a failure after buying (its answer carries the order): the engine is handed the order either way.
    await noteReturned(ctx, journal, key, state.orderNo, inputs.journalKey);
  }
}

/**
 * Marks the journal entry as handed back (`returnedAt`): from then on a
 * destroy leaves it to the Order that holds it. Bookkeeping: a journal that
 * cannot be written now only warns (the entry then reads as a create that
 * never returned, which the stack journal's delete checks with the API
 * before any refund, and whose resumed marks it respects).
 */
async function noteReturned(ctx: ProviderContext, journal: ReturnType<typeof openJournal>, key: string, orderNo: string, urn: string): Promise<void> {
  try {
    await journal.markReturned(key, orderNo, ctx.now());
  } catch (error) {
    ctx.log(urn).warn(`could not note in the purchase journal that order ${orderNo} was handed to the engine (${(error as Error).message})`);
  }
}
