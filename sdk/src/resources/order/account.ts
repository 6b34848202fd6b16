import type { PartnerApi, UserData } from "../../client/types.js";
import { resourceName } from "../../provider/index.js";
import { describeError } from "./describe-error.js";

/** The account of each client, read once per process (see {@link accountSummary}). */
const accounts = new WeakMap<PartnerApi, Promise<UserData>>();

/**
 * The account (GetUserData, spec 2.1), read once per client per process, for
 * the preview's "can this account pay?" warning. The money is under
 * `account` (`balance`, `creditAvailable`, `totalAvailable`, ... as
 * two-place strings), not under `user`. Not used where money moves:
 * CreateOrder itself is the authority.
 *
 * @example
 * ```ts
 * const { account } = await accountSummary(ctx.api());
 * if (Number(account.totalAvailable) < Number(quote)) log.warn("the account cannot pay this order");
 * ```
 */
export function accountSummary(api: PartnerApi): Promise<UserData> {
  let account = accounts.get(api);
  if (!account) {
    const reading = api.getUserData({ timeoutMs: 15_000 });
    account = reading;
    accounts.set(api, reading);
    // A failed read is not kept: the account's identity guards refresh and
    // destroy, and one lost answer must not stand for the whole process.
    reading.catch(() => {
      if (accounts.get(api) === reading) accounts.delete(api);
    });
  }
  return account;
}

/**
 * The app id of the API key in use (GetUserData's `api_key.app_id`, spec
 * 2.1): the key's public identifier, never its secret. Undefined when the
 * service shows none. Read once per client per process (with
 * {@link accountSummary}); a failure is thrown, never taken for "no id".
 *
 * @example
 * ```ts
 * const appId = await accountAppId(ctx.api()); // "ak_…"
 * ```
 */
export async function accountAppId(api: PartnerApi): Promise<string | undefined> {
  const { apiKey } = await accountSummary(api);
  return typeof apiKey.appId === "string" && apiKey.appId !== "" ? apiKey.appId : undefined;
}

/**
 * Which account an operation runs under, against the one recorded in state.
 *
 * The service answers 404 both for an order that does not exist and for
 * another account's order ("belongs to another key's user"). `pulumi
 * refresh` and `pulumi destroy` use the provider configuration the last
 * `up` recorded, so one `up` with another account's key is enough for every
 * order to read as "gone" (docs/pulumi-dynamic-providers.md, "Which provider
 * configuration an operation uses"). The Order therefore records the app id
 * of the key that bought or adopted it (`accountId`, GetUserData's
 * `api_key.app_id`, spec 2.1: public, never the secret), and only a 404
 * under that same app id proves "gone".
 */
export interface AccountView {
  /** The current key's app id; undefined when the service shows none. */
  readonly current: string | undefined;
  /** The app id recorded in state (or the journal); undefined for state written before it was recorded. */
  readonly recorded: string | undefined;
  /** True only when both are known and equal. */
  readonly same: boolean;
}

/**
 * Reads the current key's app id (one GetUserData per process) and compares
 * it with the recorded one. Failing to read it is not "another account": the
 * caller's operation fails with `doing` in the message and nothing changes.
 *
 * @example
 * const account = await accountOf(api, props.accountId, "refreshing order CERT1");
 * if (account.same) { ... a 404 proves the order is gone ... }
 */
export async function accountOf(api: PartnerApi, recorded: string | undefined, doing: string): Promise<AccountView> {
  let current: string | undefined;
  try {
    current = await accountAppId(api);
  } catch (error) {
    throw new Error(
      `certreseller Order: ${doing} needs to know which account the API key belongs to, and GetUserData failed (${describeError(error)}); ` +
        "nothing was changed, run again once the API answers",
      { cause: error },
    );
  }
  return { current, recorded, same: recorded !== undefined && current !== undefined && recorded === current };
}

/**
 * The current key's app id, or undefined when it cannot be read: for
 * recording the account once the API has shown the order to this key,
 * never for deciding that an order is gone.
 *
 * @example
 * const accountId = (await knownAccountId(api)) ?? props.accountId;
 */
export async function knownAccountId(api: PartnerApi): Promise<string | undefined> {
  try {
    return await accountAppId(api);
  } catch {
    return undefined;
  }
}

/**
 * The error for an order recorded under another account than the current
 * key's: names both app ids and the two ways on. `verb` says what was not
 * done ("removed from state", "cancelled or released", "resumed").
 *
 * @example
 * throw otherAccountError({ orderNo: "CERT1", journalKey: urn, recorded: "ak_a", current: "ak_b", verb: "cancelled or released" });
 */
export function otherAccountError(args: {
  orderNo: string;
  journalKey: string | undefined;
  recorded: string;
  current: string | undefined;
  verb: string;
}): Error {
  const { orderNo, journalKey, recorded, current, verb } = args;
  const name = journalKey ? ` "${resourceName(journalKey)}"` : "";
  const target = journalKey ? `'${journalKey}'` : "<the Order's URN>";
  return new Error(
    [
      `certreseller Order${name}: order ${orderNo} was bought (or adopted) with the API key whose app id is ${recorded}, ` +
        `but the provider now uses the key with app id ${current ?? "(none shown by the service)"}, and the API does not show the order to it ` +
        `(it answers 404 for another account's orders). Nothing was ${verb}: the order may still exist and be paid.`,
      `  - to keep managing it: restore the key that bought it (\`pulumi config set --secret certreseller:apiKey <the key of ${recorded}>\`), ` +
        "run `pulumi up` so the engine records that key (refresh and destroy use the configuration of the last `up`), then run `pulumi refresh` / `pulumi destroy` again;",
      `  - to abandon it (it stays paid; cancel it with the reseller if you can): \`pulumi state delete ${target}\`.`,
    ].join("\n"),
  );
}
