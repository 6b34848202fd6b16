import { describe, expect, it } from "vitest";
import { badRequest, forbidden, internalError, methodNotAllowed, notFound, tooManyRequests, unauthorized } from "../src/errors.js";

describe("the sandbox's error constructors", () => {
  it("give each failure its code, and the field at fault in the envelope's data", () => {
    const cases = [
      [badRequest("domain", "m"), 400, { field: "domain" }],
      [badRequest(undefined, "m"), 400, {}],
      [unauthorized("m"), 401, { field: "apikey" }],
      [forbidden("m"), 403, {}],
      [notFound("order_no", "m"), 404, { field: "order_no" }],
      [notFound(undefined, "m"), 404, {}],
      [methodNotAllowed("m"), 405, {}],
      [tooManyRequests("m", { retry_after: 3, cooldown_seconds: 180 }), 429, { retry_after: 3, cooldown_seconds: 180 }],
      [internalError("m"), 500, {}],
    ] as const;
    for (const [error, code, data] of cases) {
      expect([error.code, error.message, error.envelopeData()]).toEqual([code, "m", data]);
    }
  });

  it("keep the cause of a bad request", () => {
    const cause = new SyntaxError("x");
    expect(badRequest(undefined, "m", cause).cause).toBe(cause);
    expect(badRequest(undefined, "m").cause).toBeUndefined();
  });
});
