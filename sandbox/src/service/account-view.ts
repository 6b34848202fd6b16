import { listProducts, parseProductFilter } from "../catalogue/listing.js";
import type { AccountRecord } from "../store/types.js";
import { formatMoney } from "../util/money.js";
import { formatDateTime } from "../util/time.js";
import type { OperationRequest, ServiceContext } from "./context.js";

export function accountMoney(a: AccountRecord): {
  balance: string; credit_limit: string; credit_used: string; credit_available: string; total_available: string;
} {
  const available = a.creditLimit - a.creditUsed;
  return {
    balance: formatMoney(a.balance),
    credit_limit: formatMoney(a.creditLimit),
    credit_used: formatMoney(a.creditUsed),
    credit_available: formatMoney(available),
    total_available: formatMoney(a.balance + available),
  };
}

function renderUser(a: AccountRecord): Record<string, unknown> {
  return {
    id: a.id, username: a.username, email: a.email, status: a.status,
    bound_phone: null, bound_email: a.email,
    ...accountMoney(a),
    currency: "CNY",
    created_at: formatDateTime(a.createdAt),
  };
}

export async function getUserData(_ctx: ServiceContext, { account }: OperationRequest): Promise<Record<string, unknown>> {
  return {
    user: renderUser(account),
    api_key: {
      app_id: account.appId,
      status: account.keyStatus,
      last_used_ip: account.lastUsedIp,
      last_used_at: account.lastUsedAt === null ? null : formatDateTime(account.lastUsedAt),
      expires_at: account.keyExpiresAt,
    },
  };
}

export async function getUserProduct(_ctx: ServiceContext, { account, body }: OperationRequest): Promise<Record<string, unknown>> {
  const filter = parseProductFilter(body);
  const { page: _p, limit: _l, ...filters } = filter;
  return {
    user: { id: account.id, username: account.username, ...accountMoney(account), currency: "CNY" },
    query: { ...filters, page: filter.page, limit: filter.limit },
    products: listProducts(filter),
  };
}
