import * as pulumi from "@pulumi/pulumi";
import type { AccountFunds, AccountUser, ApiKeyInfo, UserData } from "../client/types.js";
import { afterDependencies, checkInvokeOptions } from "./invoke-options.js";
import { programClient } from "./settings.js";

/**
 * The account behind the configured API key, as GetUserData reports it
 * (spec 2.1, camelCase): who, how much money, which key — never the key's
 * secret. Money is a two-place decimal string (`"5000.00"`).
 *
 * @example
 * ```ts
 * const { user, account, apiKey, serverTime } = await certs.getAccount();
 * console.log(`${user.username}: ${account.totalAvailable} available (key ${apiKey.appId}, at ${serverTime})`);
 * ```
 */
export interface GetAccountResult {
  /** `id`, `userId`, `username`, `status` (0 banned, 1 normal, 2 awaiting e-mail check, 3 awaiting phone check), `statusText`, `userType`, `partnerLevel`, `boundPhone`, `boundEmail`. */
  user: AccountUser;
  /** `balance`, `creditLine`, `creditUsed`, `creditAvailable`, `trustedBalance`, `totalAvailable` (= balance + creditAvailable: what an order may spend). */
  account: AccountFunds;
  /** `appId` (the key's public identifier) and `lastUsedIp`; the secret is never reported. */
  apiKey: ApiKeyInfo;
  /** The service's clock, `YYYY-MM-DD HH:MM:SS`. */
  serverTime: string;
}

/**
 * Copies member by member: the result is plain JSON (it may be exported from
 * a stack) and carries only what the specification lists, whatever else a
 * future client type holds.
 */
export function toAccountResult(data: UserData): GetAccountResult {
  const { user, account, apiKey } = data;
  return {
    user: {
      id: user.id,
      userId: user.userId,
      username: user.username,
      status: user.status,
      statusText: user.statusText,
      userType: user.userType,
      partnerLevel: user.partnerLevel,
      boundPhone: user.boundPhone ?? null,
      boundEmail: user.boundEmail ?? null,
    },
    account: {
      balance: account.balance,
      creditLine: account.creditLine,
      creditUsed: account.creditUsed,
      creditAvailable: account.creditAvailable,
      trustedBalance: account.trustedBalance,
      totalAvailable: account.totalAvailable,
    },
    apiKey: { appId: apiKey.appId ?? null, lastUsedIp: apiKey.lastUsedIp ?? null },
    serverTime: data.serverTime,
  };
}

/**
 * Reads the account (GetUserData) with the stack's `certreseller:apiKey` /
 * `certreseller:baseUrl` (or `CERTRESELLER_API_KEY` / `CERTRESELLER_BASE_URL`).
 *
 * Takes Pulumi's `InvokeOptions` like other providers' functions; `parent`
 * is accepted (it has no effect: there is no provider to inherit), and
 * `provider` is refused — the stack config chooses the account.
 *
 * @example
 * ```ts
 * const { account } = await certs.getAccount();
 * if (Number(account.totalAvailable) < 200) throw new Error("top up the reseller account first");
 * ```
 */
export async function getAccount(opts?: pulumi.InvokeOptions): Promise<GetAccountResult> {
  checkInvokeOptions("getAccount", opts);
  return toAccountResult(await programClient().getUserData());
}

/**
 * {@link getAccount} as an Output, for use in resource inputs and exports.
 * With `dependsOn` the account is read once those resources exist (e.g. the
 * balance after an Order was bought); in a preview that creates them, the
 * result is unknown.
 *
 * @example
 * ```ts
 * export const balance = certs.getAccountOutput().account.balance;
 * export const balanceAfter = certs.getAccountOutput({ dependsOn: [order] }).account.balance;
 * ```
 */
export function getAccountOutput(opts?: pulumi.InvokeOutputOptions): pulumi.Output<GetAccountResult> {
  checkInvokeOptions("getAccountOutput", opts);
  return afterDependencies(opts).apply(() => getAccount());
}
