import type { AccountRecord } from "../../store/types.js";
import { renderAccount } from "./render.js";
import { HttpError, moneyField, reply, stringField, type ManagementDeps, type Reply, type Route } from "./route.js";

/** `/accounts`: create, read, top up, ban/disable/expire. */
export async function accountRoutes({ ctx }: ManagementDeps, r: Route): Promise<Reply | undefined> {
  const { store, clock } = ctx;
  if (r.is("GET", "accounts")) return reply([...store.accounts.values()].map((a) => renderAccount(ctx, a)));
  if (r.is("POST", "accounts")) {
    const body = await r.body();
    const username = stringField(body, "username");
    if (store.findAccountByUsername(username) !== undefined) throw new HttpError(409, `username ${username} already exists`);
    const a = store.createAccount({
      username, balance: moneyField(body, "balance", 0), creditLimit: moneyField(body, "creditLine", 0), now: clock.nowMs(),
      ...(typeof body.email === "string" ? { email: body.email } : {}),
    });
    return reply(renderAccount(ctx, a), 201);
  }
  if (r.seg[0] !== "accounts" || r.seg.length < 2) return undefined;
  const a = store.findAccountByUsername(r.seg[1]!);
  if (a === undefined) throw new HttpError(404, `no account ${r.seg[1]}`);
  if (r.is("GET", "accounts", null)) return reply(renderAccount(ctx, a));
  if (r.is("POST", "accounts", null, "topup")) {
    const body = await r.body();
    a.balance += moneyField(body, "amount", 0);
    a.creditLimit = moneyField(body, "creditLine", a.creditLimit);
    store.markMeta();
    return reply(renderAccount(ctx, a));
  }
  if (r.is("PATCH", "accounts", null)) {
    const body = await r.body();
    if (body.status !== undefined) {
      if (![0, 1, 2, 3].includes(body.status as number)) throw new HttpError(400, "status must be 0 (banned), 1, 2 or 3");
      a.status = body.status as AccountRecord["status"];
    }
    if (body.keyStatus !== undefined) {
      if (body.keyStatus !== 0 && body.keyStatus !== 1) throw new HttpError(400, "keyStatus must be 0 (disabled) or 1");
      a.keyStatus = body.keyStatus;
    }
    if (body.keyExpiresAt !== undefined) {
      if (body.keyExpiresAt !== null && (typeof body.keyExpiresAt !== "string" || Number.isNaN(Date.parse(body.keyExpiresAt)))) {
        throw new HttpError(400, "keyExpiresAt must be an ISO date-time or null");
      }
      a.keyExpiresAt = body.keyExpiresAt as string | null;
    }
    store.markMeta();
    return reply(renderAccount(ctx, a));
  }
  return undefined;
}
