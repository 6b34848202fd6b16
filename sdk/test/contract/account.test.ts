import { describe, expect, it } from "vitest";
import { isUserStatus } from "../../src/client/index.js";
import { ok } from "../support/partner-api/index.js";
import { answerFrom, expectSpecRequest, failure, fieldsOf, getPath, useContractClients, type FieldRow } from "./support/contract.js";

// Spec 2.1 (account data) and 4.1 GetUserData, from the specification's text.

const contract = useContractClients();

// Spec 2.1, every row of its table: wire field, a value of the listed type, public field, value read.
const SECTION_2_1: FieldRow[] = [
  ["user.id", 10086, "user.id", 10086],
  ["user.user_id", "U202600010086", "user.userId", "U202600010086"],
  ["user.username", "acme-ops", "user.username", "acme-ops"],
  ["user.status", 1, "user.status", 1],
  ["user.status_text", "正常", "user.statusText", "正常"],
  ["user.user_type", "partner", "user.userType", "partner"],
  ["user.partner_level", 2, "user.partnerLevel", 2],
  ["user.bound_phone", "138****0000", "user.boundPhone", "138****0000"],
  ["user.bound_email", "ops@acme.test", "user.boundEmail", "ops@acme.test"],
  ["account.balance", 5000, "account.balance", "5000.00"],
  ["account.credit_line", 2000, "account.creditLine", "2000.00"],
  ["account.credit_used", 150.5, "account.creditUsed", "150.50"],
  ["account.credit_available", 1849.5, "account.creditAvailable", "1849.50"],
  ["account.trusted_balance", 0, "account.trustedBalance", "0.00"],
  ["account.total_available", 6849.5, "account.totalAvailable", "6849.50"],
  ["api_key.app_id", "ak_0123456789abcdefghijklmn", "apiKey.appId", "ak_0123456789abcdefghijklmn"],
  ["api_key.last_used_ip", "203.0.113.7", "apiKey.lastUsedIp", "203.0.113.7"],
  ["server_time", "2026-07-13 12:00:00", "serverTime", "2026-07-13 12:00:00"],
];

const SPEC_USER_DATA = answerFrom(SECTION_2_1);

describe("spec 4.1 GetUserData: the request", () => {
  it("POST /partner/GetUserData/, form body with apikey and nothing else", async () => {
    contract.server.answer(ok(SPEC_USER_DATA));
    await contract.client().getUserData();
    const request = contract.only();
    expectSpecRequest(request, "GetUserData");
    expect(fieldsOf(request)).toEqual([]);
  });
});

describe("spec 2.1 account data: every field of a spec-shaped answer", () => {
  it.each(SECTION_2_1)("%s = %j → %s = %j", async (_wire, _value, camel, expected) => {
    contract.server.answer(ok(SPEC_USER_DATA));
    const me = await contract.client().getUserData();
    expect(getPath(me, camel)).toEqual(expected);
  });

  it("reads nothing else and warns about nothing", async () => {
    contract.server.answer(ok(SPEC_USER_DATA));
    const c = contract.client();
    const me = await c.getUserData();
    expect(Object.keys(me).sort()).toEqual(["account", "apiKey", "serverTime", "user"]);
    expect(Object.keys(me.user)).toHaveLength(9);
    expect(Object.keys(me.account)).toHaveLength(6);
    expect(Object.keys(me.apiKey)).toHaveLength(2);
    expect(contract.warnings).toEqual([]);
  });

  it("money as decimal strings is accepted too", async () => {
    contract.server.answer(ok({ ...SPEC_USER_DATA, account: { ...(SPEC_USER_DATA.account as object), balance: "5000.5" } }));
    expect((await contract.client().getUserData()).account.balance).toBe("5000.50");
  });

  it("bound phone/e-mail, app_id and last_used_ip may be null", async () => {
    const user = { ...(SPEC_USER_DATA.user as object), bound_phone: null, bound_email: null };
    contract.server.answer(ok({ ...SPEC_USER_DATA, user, api_key: { app_id: null, last_used_ip: null } }));
    const me = await contract.client().getUserData();
    expect(me.user).toMatchObject({ boundPhone: null, boundEmail: null });
    expect(me.apiKey).toEqual({ appId: null, lastUsedIp: null });
  });

  it("an unlisted user.status and unknown fields pass through", async () => {
    contract.server.answer(ok({ ...SPEC_USER_DATA, user: { ...(SPEC_USER_DATA.user as object), status: 9, avatar: "x" }, new_section: {} }));
    const me = await contract.client().getUserData();
    expect(me.user.status).toBe(9);
    expect(isUserStatus(me.user.status)).toBe(false);
    expect(me.user).not.toHaveProperty("avatar");
  });

  it("money that is not a whole number of cents is refused, not rounded (a read: malformed_response naming the wire path)", async () => {
    contract.server.answer(ok({ ...SPEC_USER_DATA, account: { ...(SPEC_USER_DATA.account as object), balance: 1.005 } }));
    expect(await failure(contract.client().getUserData())).toMatchObject({ kind: "malformed_response", field: "data.account.balance" });
  });
});
