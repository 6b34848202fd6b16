import { describe, expect, it } from "vitest";
import { isRefundMode, RefundStatus } from "../../src/client/index.js";
import { apiError, ok } from "../support/partner-api/index.js";
import { answerFrom, expectSpecRequest, failure, fieldsOf, getPath, useContractClients, type FieldRow } from "./support/contract.js";

// Spec 2.6 (refund) and 4.7 CancelOrder.

const contract = useContractClients();
const ORDER_NO = "CERT202607041730001234";

// Spec 4.7: order_no plus every field of 2.6, upstream_cancel as an object; money as a number.
const ANSWER_FIELDS: FieldRow[] = [
  ["order_no", ORDER_NO, "orderNo", ORDER_NO],
  ["refund_id", 5521, "refundId", 5521],
  ["refund_amount", 120, "refundAmount", "120.00"],
  ["refund_to", "credit", "refundTo", "credit"],
  ["refund_order_no", "REFUND202607131930001234", "refundOrderNo", "REFUND202607131930001234"],
  ["refund_mode", "direct", "refundMode", "direct"],
  ["refund_status", 3, "refundStatus", 3],
  ["upstream_cancel.success", true, "upstreamCancel.success", true],
  ["upstream_cancel.provider", "sectigo", "upstreamCancel.provider", "sectigo"],
  ["upstream_cancel.message", "Order cancelled", "upstreamCancel.message", "Order cancelled"],
  ["upstream_cancel.upstream_code", "0", "upstreamCancel.upstreamCode", "0"],
  ["upstream_cancel.skipped", false, "upstreamCancel.skipped", false],
];
const SPEC_ANSWER = answerFrom(ANSWER_FIELDS);

describe("spec 4.7 CancelOrder: the request", () => {
  it("POST /partner/CancelOrder/ with apikey, order_no and reason", async () => {
    contract.server.answer(ok(SPEC_ANSWER));
    await contract.client().cancelOrder({ orderNo: ORDER_NO, reason: "stack destroyed" });
    const request = contract.only();
    expectSpecRequest(request, "CancelOrder");
    expect(fieldsOf(request)).toEqual([["order_no", ORDER_NO], ["reason", "stack destroyed"]]);
  });

  it("no reason given: reason is sent empty (the spec allows it)", async () => {
    contract.server.answer(ok(SPEC_ANSWER));
    await contract.client().cancelOrder({ orderNo: ORDER_NO });
    expect(fieldsOf(contract.only())).toEqual([["order_no", ORDER_NO], ["reason", ""]]);
  });

  it("a reason over 200 characters is refused before sending (the service's limit is not published)", async () => {
    const error = await failure(contract.client().cancelOrder({ orderNo: ORDER_NO, reason: "x".repeat(201) }));
    expect(error).toMatchObject({ kind: "invalid_argument", field: "reason", mayHaveReachedServer: false });
    expect(error.message).toContain("at most 200 characters");
    contract.server.answer(ok(SPEC_ANSWER));
    await contract.client().cancelOrder({ orderNo: ORDER_NO, reason: "y".repeat(200) });
    expect(contract.server.requests).toHaveLength(1);
  });
});

describe("spec 2.6 refund: every field of a spec-shaped answer", () => {
  it.each(ANSWER_FIELDS)("%s = %j → %s = %j", async (_wire, _value, camel, expected) => {
    contract.server.answer(ok(SPEC_ANSWER));
    const result = await contract.client().cancelOrder({ orderNo: ORDER_NO });
    expect(getPath(result, camel)).toEqual(expected);
  });

  it("nothing is left out of a complete answer", async () => {
    contract.server.answer(ok(SPEC_ANSWER));
    const result = await contract.client().cancelOrder({ orderNo: ORDER_NO });
    expect(Object.keys(result)).toHaveLength(8);
    expect(Object.keys(result.upstreamCancel!)).toHaveLength(5);
    expect(contract.warnings).toEqual([]);
  });

  it("audit mode (the service's documentation): no refund_order_no, status 0, skipped upstream; no warning for the absent number", async () => {
    const { refund_order_no: _, ...rest } = SPEC_ANSWER;
    contract.server.answer(ok({ ...rest, refund_mode: "audit", refund_status: 0, upstream_cancel: { ...(SPEC_ANSWER.upstream_cancel as object), success: false } }));
    const result = await contract.client().cancelOrder({ orderNo: ORDER_NO });
    expect(result).toMatchObject({ refundMode: "audit", refundStatus: RefundStatus.AwaitingReview, upstreamCancel: { success: false } });
    expect(result).not.toHaveProperty("refundOrderNo");
    expect(contract.warnings).toEqual([]);
  });

  it("an unlisted refund_mode / refund_to / refund_status passes through", async () => {
    contract.server.answer(ok({ ...SPEC_ANSWER, refund_mode: "manual", refund_to: "wallet", refund_status: 5 }));
    const result = await contract.client().cancelOrder({ orderNo: ORDER_NO });
    expect(result).toMatchObject({ refundMode: "manual", refundTo: "wallet", refundStatus: 5 });
    expect(isRefundMode(result.refundMode!)).toBe(false);
  });

  it("an executed cancel (code 200) is a success with whatever refund fields parsed; the rest is reported", async () => {
    contract.server.answer(ok({ refund_amount: "120.00", refund_id: "not-a-number", upstream_cancel: { success: true } }));
    const result = await contract.client().cancelOrder({ orderNo: ORDER_NO });
    expect(result).toEqual({ orderNo: ORDER_NO, refundAmount: "120.00", upstreamCancel: { success: true } });
    expect(contract.warnings).toContain("CancelOrder: data.refund_id: expected an integer, got a string; left out");
    expect(contract.warnings).toContain("CancelOrder: data.upstream_cancel.provider: is missing; left out");
  });

  it("code 200 with no data at all is still the refund that happened", async () => {
    contract.server.answer(ok(null));
    expect(await contract.client().cancelOrder({ orderNo: ORDER_NO })).toEqual({ orderNo: ORDER_NO });
    expect(contract.warnings[0]).toBe("CancelOrder: data: expected an object, got null; read as empty");
  });

  it("a refusal by the API (code 400: already refunded, past 7 days) is invalid_request", async () => {
    contract.server.answer(apiError(400, "订单已退款"));
    expect(await failure(contract.client().cancelOrder({ orderNo: ORDER_NO }))).toMatchObject({ kind: "invalid_request", code: 400 });
  });
});
