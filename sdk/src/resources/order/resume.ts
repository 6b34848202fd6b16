/**
 * The resume path of an Order's create: a purchase the journal holds for
 * this resource, from a create that did not finish. An order bought for
 * these purchase inputs is resumed (not bought again); one the API shows
 * gone is forgotten, so the create buys; anything else stops the create.
 */
import type { CreateOrderResult } from "../../client/types.js";
import { describeError } from "../../client/describe-error.js";
import { changedInputs, purchaseDigest, purchaseInputDigests, unscopedEntryKey, type JournalEntry, type PurchaseJournal } from "../../journal/index.js";
import { resourceName, type ProviderContext } from "../../provider/index.js";
import { accountOf, incompleteRecord, knownAccount, otherAccountError, type AccountRecord } from "./account.js";
import { adoptOrder } from "./adopt.js";
import { stateFromCreate } from "./bought-state.js";
import { apiSaysNoSuchOrder, unconfirmedNotFound } from "./evidence.js";
import type { InputRecord, OrderInputs } from "./inputs.js";
import { purchaseInputsOf } from "./journal-entry.js";
import { entryKeyOf, foreignNote, foreignOrderMessage, maybeBoughtMessage, namesOf, otherPurchaseMessage, removeCommand, unscopedEntryMessage } from "./purchase-messages.js";
import { markTakenOver } from "./resumed-mark.js";
import { revokedAdvice, settlementOf, SettlementUnknownError } from "./settlement.js";
import type { OrderState } from "./state.js";

/**
 * CreateOrder's answer as a journal entry kept it. Entries written by an
 * earlier release carry another shape: only what reads as this release's
 * answer is taken, the order number always.
 */
function answerFromJournal(entry: JournalEntry & { orderNo: string }): CreateOrderResult {
  const order = entry.order ?? {};
  const money = (key: string) => (typeof order[key] === "string" ? (order[key] as string) : undefined);
  const count = (key: string) => (typeof order[key] === "number" ? (order[key] as number) : undefined);
  return {
    orderNo: entry.orderNo,
    totalAmount: money("totalAmount"),
    discountAmount: money("discountAmount"),
    payableAmount: money("payableAmount"),
    unitPrice: money("unitPrice"),
    sanPrice: money("sanPrice"),
    wildcardPrice: money("wildcardPrice"),
    extraSanCount: count("extraSanCount"),
    extraWcCount: count("extraWcCount"),
    installmentsCount: count("installmentsCount"),
  };
}

/**
 * True only when the API itself says the order is cancelled or refunded (its
 * order status: a revoked certificate alone is not, see settlement.ts), or
 * gone (its 404) for the account that bought it (the app id and service
 * endpoint the journal recorded). A 404 under another account or endpoint,
 * or for an entry that recorded neither, is not evidence: the service
 * answers 404 for another account's orders too. Anything else (an HTML error page, a network failure) is not
 * evidence either and is thrown: `create` then stops instead of buying a
 * second certificate.
 */
async function isDead(ctx: ProviderContext, orderNo: string, recorded: AccountRecord, inputs: OrderInputs, journal: PurchaseJournal): Promise<boolean> {
  const api = ctx.api();
  let certStatus;
  try {
    certStatus = (await api.getRecord({ orderNo })).certStatus;
  } catch (error) {
    if (await apiSaysNoSuchOrder(api, orderNo, error)) {
      const account = await accountOf(ctx, recorded, `resuming order ${orderNo} (the API answered 404)`);
      if (account.same) return true;
      if (account.other) throw otherAccountError({ orderNo, journalKey: inputs.journalKey, account, verb: "resumed and nothing was bought" });
      throw new Error(
        `certreseller Order "${resourceName(inputs.journalKey)}": the purchase journal names order ${orderNo} from an earlier run. ${incompleteRecord(account)} (the journal entry is older). ` +
          "Not buying. If another key or base URL bought it: set that one (`pulumi config set --secret certreseller:apiKey ...` / `pulumi config set certreseller:baseUrl ...`) and run `pulumi up`; " +
          `if the order is really gone, remove the journal entry (${removeCommand(journal, entryKeyOf(inputs))}) and run \`pulumi up\` again.`,
        { cause: error },
      );
    }
    throw new Error(
      `certreseller Order: the purchase journal names order ${orderNo} from an earlier run, and its state could not be read ` +
        `(${describeError(error)}${unconfirmedNotFound(error)}). Not buying: run \`pulumi up\` again once the API answers.`,
      { cause: error },
    );
  }
  // The order status decides (settlement.ts): a revoked certificate of a live order is still a paid order.
  try {
    const settlement = await settlementOf(api, orderNo, certStatus);
    if (settlement.kind === "revoked") ctx.log(inputs.journalKey).warn(revokedAdvice(orderNo, settlement.orderStatus, inputs.journalKey));
    return settlement.kind === "settled";
  } catch (error) {
    if (!(error instanceof SettlementUnknownError)) throw error;
    throw new Error(
      `certreseller Order: the purchase journal names order ${orderNo} from an earlier run, and ${error.message}. ` +
        `Not buying: run \`pulumi up\` again${error.retryAfter ? ` in ${error.retryAfter} s` : " later"}.`,
      { cause: error },
    );
  }
}

/**
 * The entry of this resource journaled under another backend fingerprint
 * (same organisation and URN), if there is one. Two or more stop the create:
 * which one is this stack's cannot be told. A journal that cannot be listed
 * is a warning: the lookup is then impossible, the purchase is not.
 */
async function foreignEntry(ctx: ProviderContext, inputs: OrderInputs, journal: PurchaseJournal): Promise<JournalEntry | undefined> {
  const key = entryKeyOf(inputs);
  const others = await journal.related(key);
  if (others === undefined) {
    ctx.log(inputs.journalKey).warn(
      `the purchase journal ${journal.location} cannot be listed, so an interrupted purchase of this resource journaled under another backend fingerprint ` +
        "would not be found (with S3, grant s3:ListBucket on the journal's prefix)",
    );
    return undefined;
  }
  if (others.length <= 1) return others[0];
  throw new Error(
    `certreseller Order "${resourceName(inputs.journalKey)}": the purchase journal holds ${others.length} entries for this resource under other backend fingerprints ` +
      `(${others.map((e) => `${journal.fileFor(e.key)}: ${e.orderNo ? `order ${e.orderNo}` : `an answer lost at ${e.intentAt}`}`).join("; ")}), ` +
      `and this run would journal it at ${journal.fileFor(key)}. Not buying. Check each order with \`${journal.command("ls")}\`, ` +
      "adopt this resource's (`adoptOrderNo`) and remove the others' entries once settled.",
  );
}

/**
 * Before the plugin's `organization` setting, its Orders were journaled under
 * the organisation `organization`. On Pulumi Cloud the setting gives another
 * scope, under which such an entry is not found: a purchase whose answer was
 * lost before the upgrade would be bought again, or the entry may be another
 * organisation's stack of the same name. Either way a person decides: the
 * create stops (so does the preview, in the plugin's check). A replaced
 * Order's own entry is tidied by its diff first (`forgetOrder`). The
 * message, or undefined when there is no such entry.
 */
async function unscopedEntryStop(inputs: OrderInputs, journal: PurchaseJournal): Promise<string | undefined> {
  const unscoped = unscopedEntryKey(inputs);
  if (!unscoped) return undefined;
  const entry = await journal.read(unscoped);
  return entry ? `certreseller Order "${resourceName(inputs.journalKey)}": ${unscopedEntryMessage(journal, entry)}` : undefined;
}

/**
 * What a create of this Order will do about the purchase journal, read
 * without changing anything, so that a preview can say it as `up` will do it:
 *
 * - `buy`: the journal holds nothing for this Order (or only an order the
 *   API itself shows cancelled, refunded or gone: `forget`, which `up`
 *   removes before buying);
 * - `resume`: it holds an order bought for these purchase inputs by a create
 *   that did not finish; `up` takes it into state and buys nothing;
 * - `stop`: it holds a purchase that may exist but cannot be resumed (other
 *   inputs, a lost answer, another backend's entry); `up` stops with
 *   `message` before buying.
 *
 * Reads GetRecord for a journaled order (and its status only when its
 * certificate is revoked). Throws when that evidence cannot be had, which
 * stops a create as well. `unscoped: false` skips the entries written under
 * no organisation (the plugin's check already stops on those); `replacing`
 * gives a preview's old inputs.
 *
 * @example
 * const plan = await planFromJournal(ctx, inputs, openJournal(ctx.settings), journalEntryKey(inputs));
 * if (plan.kind === "resume") log.info(`will resume order ${plan.entry.orderNo}`);
 */
export async function planFromJournal(
  ctx: ProviderContext,
  inputs: OrderInputs,
  journal: PurchaseJournal,
  key: string,
  { unscoped = true, replacing }: { unscoped?: boolean; replacing?: InputRecord } = {},
): Promise<JournalPlan> {
  // An entry written by an earlier release sits under the URN alone; one under another spelling of the backend, under another key.
  let entry = (await journal.read(key)) ?? (key !== inputs.journalKey ? await journal.read(inputs.journalKey) : undefined);
  // A preview's replacement (`replacing`: the old inputs): an entry bought with them is the order the replaced resource
  // holds (the `up` that bought it has not diffed since). The engine diffs that resource before creating the
  // replacement, which tidies the entry (a targeted `--replace` with unchanged inputs skips that diff and resumes the
  // order instead: delete.ts).
  if (replacing && entry?.orderNo && entry.purchaseDigest !== undefined && entry.purchaseDigest === purchaseDigest(replacing, purchaseInputsOf(replacing))) {
    return { kind: "buy" };
  }
  if (!entry && unscoped) {
    const message = await unscopedEntryStop(inputs, journal);
    if (message) return { kind: "stop", message };
  }
  entry ??= await foreignEntry(ctx, inputs, journal);
  const foreign = entry !== undefined && entry.key !== key && entry.key !== inputs.journalKey;
  // The account that bought it: recorded with the order, else with the intent (whose key sent CreateOrder).
  const recordedAccount: AccountRecord =
    typeof entry?.order?.accountId === "string"
      ? { accountId: entry.order.accountId, accountEndpoint: typeof entry.order.accountEndpoint === "string" ? entry.order.accountEndpoint : undefined }
      : { accountId: entry?.accountId, accountEndpoint: entry?.accountEndpoint };
  if (entry?.orderNo && (await isDead(ctx, entry.orderNo, recordedAccount, inputs, journal))) {
    // Left behind by a stack removed without destroy, say: that order is gone, so buying is right.
    return { kind: "buy", forget: entry };
  }
  if (entry && foreign && entry.orderNo) {
    // Never resumed across fingerprints: every self-managed backend's organisation is `organization`, so another
    // backend's stack of the same project, stack and resource name reads as this resource. Resuming would leave two
    // stacks holding one order, and destroying either would cancel the other's certificate.
    return { kind: "stop", message: foreignOrderMessage(inputs, entry as JournalEntry & { orderNo: string }, journal, key) };
  }
  if (!entry) return { kind: "buy" };
  if (!entry.orderNo) {
    return { kind: "stop", message: maybeBoughtMessage(inputs, entry, journal, "the previous run stopped before it was recorded") + (foreign ? foreignNote(journal, key, entry) : "") };
  }
  const bought = entry as JournalEntry & { orderNo: string };
  const purchase = purchaseInputsOf(inputs as unknown as InputRecord);
  if (entry.purchaseDigest !== undefined && entry.purchaseDigest !== purchaseDigest(inputs as unknown as InputRecord, purchase)) {
    const changed = changedInputs(entry.inputDigests, purchaseInputDigests(inputs as unknown as InputRecord, purchase));
    return { kind: "stop", message: otherPurchaseMessage(inputs, bought, journal, `other purchase inputs (changed: ${changed.length > 0 ? changed.join(", ") : "not recorded"})`) };
  }
  // An earlier release's entry holds no digest: names and product, as that release compared them.
  if (JSON.stringify(entry.names) !== JSON.stringify(namesOf(inputs)) || entry.productCode !== inputs.productCode) {
    return { kind: "stop", message: otherPurchaseMessage(inputs, bought, journal, `${namesOf(inputs).join(", ")} (${inputs.productCode})`) };
  }
  return { kind: "resume", entry: bought, recordedAccount };
}

/** What {@link planFromJournal} found. */
export type JournalPlan =
  | { kind: "buy"; forget?: JournalEntry }
  | { kind: "resume"; entry: JournalEntry & { orderNo: string }; recordedAccount: AccountRecord }
  | { kind: "stop"; message: string };

/**
 * The journaled purchase of this resource, resumed: its state, or undefined
 * when the journal holds none (or only an order the API shows gone, now
 * forgotten) and the create may buy. Stops (throws) on a purchase that may
 * exist but cannot be resumed.
 */
export async function resumeJournaled(ctx: ProviderContext, inputs: OrderInputs, journal: PurchaseJournal, key: string): Promise<OrderState | undefined> {
  const log = ctx.log(inputs.journalKey);
  const api = ctx.api();
  const plan = await planFromJournal(ctx, inputs, journal, key);
  if (plan.kind === "stop") throw new Error(plan.message);
  if (plan.kind === "buy") {
    if (plan.forget) {
      log.warn(`the purchase journal named order ${plan.forget.orderNo}, which is cancelled, refunded or gone; forgetting it`);
      await journal.clear(plan.forget.key);
    }
    return undefined;
  }
  const { entry, recordedAccount } = plan;
  log.warn(
    `resuming order ${entry.orderNo} bought by an interrupted run at ${entry.orderedAt} (not buying again). That run's create stays in the stack as a pending ` +
      'operation, so later commands repeat "Attempting to deploy or update resources with 1 pending operations from previous deployment.": once this ' +
      "update has finished, run `pulumi refresh --yes --clear-pending-creates` (a plain `pulumi refresh --yes` keeps it; the Order is in state, only the stale record goes)",
  );
  const receivedAt = entry.orderedAt ? new Date(entry.orderedAt) : ctx.now();
  const state = entry.order ? stateFromCreate(inputs, answerFromJournal(entry), receivedAt) : await adoptOrder(api, inputs, entry.orderNo);
  // Durable before the engine can delete a resource this one replaces: that delete reads the mark and does not
  // cancel the order (delete.ts). If the mark cannot be written, nothing is resumed (and nothing bought).
  const resumedAt = await markTakenOver(
    ctx,
    journal,
    key,
    entry.orderNo,
    (error) =>
      new Error(
        `certreseller Order "${resourceName(inputs.journalKey)}": order ${entry.orderNo} bought by an interrupted run would be resumed, but the purchase journal ` +
          `${journal.location} could not be written (${(error as Error).message}). Nothing was bought; run \`pulumi up\` again once the journal is writable.`,
        { cause: error },
      ),
  );
  // isDead's GetRecord showed the order to this key.
  return { ...state, resumedAt, ...(await knownAccount(ctx, recordedAccount)) };
}
