import type { PartnerApi, UserData } from "../../client/types.js";
import { describeError } from "../../client/describe-error.js";
import { resourceName, type ProviderContext } from "../../provider/index.js";

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
 * The account an order is recorded under: the app id of the key (GetUserData's
 * `api_key.app_id`, spec 2.1: public, never the secret) AND the service
 * endpoint it answered at. App ids are unique within one deployment of the
 * service only: a staging copy, or another reseller's deployment, may issue
 * the same app id, and its 404 says nothing about this deployment's orders.
 * Stored in the state of the Order, the Validation and the Certificate, and
 * in the purchase journal's entry.
 */
export interface AccountRecord {
  /** The app id; absent in state written before the account was recorded. */
  readonly accountId?: string;
  /** The normalised base URL ({@link serviceEndpoint}); absent in state written before the endpoint was recorded. */
  readonly accountEndpoint?: string;
}

/**
 * The base URL as one spelling: scheme and host in lower case, no default
 * port, no query, fragment or credentials, the path with one trailing slash
 * (the client resolves operations under it the same way). Undefined when it
 * is not a URL.
 *
 * @example
 * serviceEndpoint("HTTPS://Partner.Example.com:443/api") // "https://partner.example.com/api/"
 */
export function serviceEndpoint(baseUrl: string | undefined): string | undefined {
  if (baseUrl === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return undefined;
  }
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.protocol}//${url.host}${path}/`;
}

/** What a context must give to tell its account: the client and the configured base URL. */
export type AccountContext = Pick<ProviderContext, "api" | "settings">;

/**
 * Which account an operation runs under, against the one recorded in state.
 *
 * The service answers 404 both for an order that does not exist and for
 * another account's order ("belongs to another key's user"), and another
 * deployment of the service answers 404 for every order it never held.
 * `pulumi refresh` and `pulumi destroy` use the provider configuration the
 * last `up` recorded, so one `up` with another account's key or another
 * base URL is enough for every order to read as "gone"
 * (docs/pulumi-dynamic-providers.md, "Which provider configuration an
 * operation uses"). Only a 404 under the recorded app id AT the recorded
 * endpoint proves "gone".
 */
export interface AccountView {
  /** The current key's app id; undefined when the service shows none. */
  readonly current: string | undefined;
  /** The current endpoint (normalised base URL). */
  readonly currentEndpoint: string | undefined;
  /** The recorded app id; undefined for state written before it was recorded. */
  readonly recorded: string | undefined;
  /** The recorded endpoint; undefined for state written before it was recorded. */
  readonly recordedEndpoint: string | undefined;
  /** What to store for the current account once the API has shown the order to it. */
  readonly record: AccountRecord;
  /** Both app ids and both endpoints known and equal: a 404 proves "gone". */
  readonly same: boolean;
  /** Both recorded in full, and the app id or the endpoint differs: "another account", never "gone". */
  readonly other: boolean;
}

/**
 * Reads the current key's app id (one GetUserData per process) and compares
 * it and the configured endpoint with the recorded ones. Failing to read it
 * is not "another account": the caller's operation fails with `doing` in the
 * message and nothing changes.
 *
 * A record without an endpoint (written by an earlier release) is neither
 * "same" nor "other": a 404 then proves nothing, and the caller keeps the
 * order and says how to confirm (docs/evidence.md).
 *
 * @example
 * const account = await accountOf(ctx, props, "refreshing order CERT1");
 * if (account.same) { ... a 404 proves the order is gone ... }
 */
export async function accountOf(ctx: AccountContext, recorded: AccountRecord, doing: string): Promise<AccountView> {
  let current: string | undefined;
  try {
    current = await accountAppId(ctx.api());
  } catch (error) {
    throw new Error(
      `certreseller: ${doing} needs to know which account the API key belongs to, and GetUserData failed (${describeError(error)}); ` +
        "nothing was changed, run again once the API answers",
      { cause: error },
    );
  }
  const currentEndpoint = serviceEndpoint(ctx.settings.baseUrl);
  const { accountId, accountEndpoint } = recorded;
  const complete = accountId !== undefined && accountEndpoint !== undefined;
  const same = complete && current !== undefined && currentEndpoint !== undefined && accountId === current && accountEndpoint === currentEndpoint;
  return {
    current,
    currentEndpoint,
    recorded: accountId,
    recordedEndpoint: accountEndpoint,
    record: current === undefined ? {} : { accountId: current, accountEndpoint: currentEndpoint },
    same,
    other: complete && !same,
  };
}

/**
 * The current account to record, once the API has shown the order to this
 * key at this endpoint; `fallback` (the record so far) when the app id
 * cannot be read: never for deciding that an order is gone.
 *
 * @example
 * state = { ...state, ...(await knownAccount(ctx, props)) };
 */
export async function knownAccount(ctx: AccountContext, fallback: AccountRecord = {}): Promise<AccountRecord> {
  try {
    const accountId = await accountAppId(ctx.api());
    if (accountId !== undefined) return { accountId, accountEndpoint: serviceEndpoint(ctx.settings.baseUrl) };
  } catch {
    // Unknown: keep what was recorded.
  }
  return { accountId: fallback.accountId, accountEndpoint: fallback.accountEndpoint };
}

/** "app id X at <endpoint>", or the app id alone when no endpoint is known. */
function where(appId: string | undefined, endpoint: string | undefined): string {
  return `app id ${appId ?? "(none shown by the service)"}${endpoint ? ` at ${endpoint}` : ""}`;
}

/**
 * The error for an order recorded under another account than the current
 * one (another app id, or another service endpoint): names both accounts and
 * the two ways on. Every resource that reads the order (Order, Validation,
 * Certificate) says the same. `verb` says what was not done ("removed from
 * state", "cancelled or released", "resumed").
 *
 * @example
 * throw otherAccountError({ orderNo: "CERT1", journalKey: urn, account, verb: "cancelled or released" });
 */
export function otherAccountError(args: {
  /** The resource type that failed; default `Order`. */
  resource?: string;
  orderNo: string;
  /** The resource's URN (or name), when known: named in the message and in `pulumi state delete`. */
  journalKey: string | undefined;
  account: Pick<AccountView, "current" | "currentEndpoint" | "recorded" | "recordedEndpoint">;
  verb: string;
}): Error {
  const { resource = "Order", orderNo, journalKey, account, verb } = args;
  const { current, currentEndpoint, recorded, recordedEndpoint } = account;
  const name = journalKey ? ` "${resourceName(journalKey)}"` : "";
  const target = journalKey?.startsWith("urn:") ? `'${journalKey}'` : `<the ${resource}'s URN>`;
  const movedEndpoint = recordedEndpoint !== undefined && currentEndpoint !== undefined && recordedEndpoint !== currentEndpoint;
  const otherKey = recorded !== current;
  const restore = [
    ...(movedEndpoint ? [`the base URL that bought it (\`pulumi config set certreseller:baseUrl ${recordedEndpoint}\`)`] : []),
    ...(otherKey ? [`the key that bought it (\`pulumi config set --secret certreseller:apiKey <the key of ${recorded}>\`)`] : []),
  ];
  const why = movedEndpoint
    ? "another deployment of the service (even one that issues the same app ids) does not hold this deployment's orders and answers 404 for them"
    : "it answers 404 for another account's orders";
  return new Error(
    [
      `certreseller ${resource}${name}: order ${orderNo} was bought (or adopted) with the API key whose ` +
        (movedEndpoint
          ? `${where(recorded, recordedEndpoint)}, but the provider now uses the key whose ${where(current, currentEndpoint)}`
          : `${where(recorded, undefined)}, but the provider now uses the key whose ${where(current, undefined)}${currentEndpoint ? ` (both at ${currentEndpoint})` : ""}`) +
        `, and the API does not show the order to it (${why}). ` +
        `Nothing was ${verb}: the order may still exist and be paid.`,
      `  - to keep managing it: restore ${restore.join(" and ")}, ` +
        `run \`pulumi up\` so the engine records that ${otherKey ? "key" : "configuration"} (refresh and destroy use the configuration of the last \`up\`), then run \`pulumi refresh\` / \`pulumi destroy\` again;`,
      `  - to abandon it (it stays paid; cancel it with the reseller if you can): \`pulumi state delete ${target}\`.`,
    ].join("\n"),
  );
}

/**
 * Why a 404 proves nothing for a record that is not complete (neither
 * "same" nor "other" in {@link AccountView}): for the messages that keep the
 * order and say how to confirm.
 *
 * @example
 * log.warn(`order ${id}: the API answers 404 ... ${incompleteRecord(account)} ... kept`);
 */
export function incompleteRecord(account: Pick<AccountView, "current" | "currentEndpoint" | "recorded">): string {
  const now = `the current key (${where(account.current, account.currentEndpoint)})`;
  return account.recorded === undefined
    ? `The API answers 404 for ${now}, which means "does not exist" OR "belongs to another account", and this state was written before the account was recorded, so that cannot be told apart`
    : `The API answers 404 for ${now}, and this state (written by an earlier release) records the app id ${account.recorded} but not the service endpoint it was bought at: ` +
        "another deployment of the service (a staging copy, say) may issue the same app ids and holds none of this one's orders, so the 404 cannot be told from \"gone\"";
}
