import * as pulumi from "@pulumi/pulumi";
import { programClient } from "./settings.js";

/** The account behind the configured API key (never the key itself). */
export interface GetAccountResult {
  username: string;
  email: string | null;
  /** 0 banned, 1 normal, 2 awaiting e-mail check, 3 awaiting phone check. */
  status: number;
  /** Decimal strings, e.g. `"5000.00"`. */
  balance: string;
  creditLimit: string | null;
  creditUsed: string | null;
  creditAvailable: string | null;
  /** `balance + creditAvailable`: what an order may spend. */
  totalAvailable: string;
  currency: string | null;
  /** The public half of the key (`ak_...`); the secret is never reported. */
  appId: string | null;
  /** Key state: 1 active. */
  keyStatus: number | null;
  keyExpiresAt: string | null;
}

/**
 * Reads the account (GetUserData) with the stack's `certreseller:apiKey` /
 * `certreseller:baseUrl` (or `CERTRESELLER_API_KEY` / `CERTRESELLER_BASE_URL`).
 *
 * @example
 * ```ts
 * const account = await certs.getAccount();
 * if (Number(account.totalAvailable) < 200) throw new Error("top up the reseller account first");
 * ```
 */
export async function getAccount(): Promise<GetAccountResult> {
  const { user, apiKey } = await programClient().getUserData();
  return {
    username: user.username,
    email: user.email ?? null,
    status: user.status,
    balance: user.balance,
    creditLimit: user.creditLimit ?? null,
    creditUsed: user.creditUsed ?? null,
    creditAvailable: user.creditAvailable ?? null,
    totalAvailable: user.totalAvailable,
    currency: user.currency ?? null,
    appId: apiKey.appId ?? null,
    keyStatus: apiKey.status ?? null,
    keyExpiresAt: apiKey.expiresAt ?? null,
  };
}

/**
 * {@link getAccount} as an Output, for use in resource inputs and exports.
 *
 * @example
 * ```ts
 * export const balance = certs.getAccountOutput().balance;
 * ```
 */
export function getAccountOutput(): pulumi.Output<GetAccountResult> {
  return pulumi.output(getAccount());
}
