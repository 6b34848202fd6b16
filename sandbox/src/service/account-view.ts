import { listProducts, parseProductFilter } from "../catalogue/listing.js";
import type { AccountRecord, UserStatus } from "../store/types.js";
import { toAmount } from "../util/money.js";
import { formatDateTime } from "../util/time.js";
import type { OperationRequest, ServiceContext } from "./context.js";

const STATUS_TEXT: Record<UserStatus, string> = {
  0: "banned", 1: "normal", 2: "awaiting e-mail verification", 3: "awaiting phone verification",
};

/** Spec 2.1 `account`: money as numbers; total_available = balance + credit_available. */
export function accountMoney(a: AccountRecord): {
  balance: number; credit_line: number; credit_used: number; credit_available: number; trusted_balance: number; total_available: number;
} {
  const available = a.creditLimit - a.creditUsed;
  return {
    balance: toAmount(a.balance),
    credit_line: toAmount(a.creditLimit),
    credit_used: toAmount(a.creditUsed),
    credit_available: toAmount(available),
    // The specification shows the field without its meaning; the sandbox holds no trusted funds.
    trusted_balance: 0,
    total_available: toAmount(a.balance + available),
  };
}

/** `user_id`: the string form of the account's identity, distinct from the integer `id`. */
export const userIdOf = (a: AccountRecord): string => `U${a.id}`;

/** GetUserData (spec 4.1): exactly the fields of spec 2.1. */
export async function getUserData(ctx: ServiceContext, { account }: OperationRequest): Promise<Record<string, unknown>> {
  return {
    user: {
      id: account.id,
      user_id: userIdOf(account),
      username: account.username,
      status: account.status,
      status_text: STATUS_TEXT[account.status],
      user_type: "partner",
      partner_level: 1,
      // Sandbox accounts have no phone; the spec types the field as a string.
      bound_phone: "",
      bound_email: account.email,
    },
    account: accountMoney(account),
    api_key: { app_id: account.appId, last_used_ip: account.lastUsedIp ?? "" },
    server_time: formatDateTime(ctx.clock.nowMs()),
  };
}

/** GetUserProduct (reference: product list): `user` summary, the `query` as understood, and a page of products. */
export async function getUserProduct(_ctx: ServiceContext, { account, body }: OperationRequest): Promise<Record<string, unknown>> {
  const filter = parseProductFilter(body);
  const { page: _p, limit: _l, ...filters } = filter;
  const money = accountMoney(account);
  return {
    user: {
      id: account.id, user_id: userIdOf(account), username: account.username,
      balance: money.balance, credit_available: money.credit_available, total_available: money.total_available,
    },
    query: { ...filters, page: filter.page, limit: filter.limit },
    products: listProducts(filter),
  };
}
