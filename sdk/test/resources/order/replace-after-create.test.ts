/**
 * A targeted replacement (`pulumi up --replace`) right after the up that
 * bought the order: the engine calls no diff first, so the purchase journal
 * still holds the order, and the replacement's create resumes it. The
 * replaced resource's delete then names the order the replacement holds: it
 * must not cancel it (the certificate in use would be revoked and the state
 * would hold a cancelled order).
 */
import { expect, it } from "vitest";
import { PurchaseJournal } from "../../../src/journal/index.js";
import { createContext } from "../../../src/provider/index.js";
import { handlers } from "../../../src/resources/order/handlers.js";
import type { OrderState } from "../../../src/resources/order/state.js";
import { count, useHarness } from "./harness.js";

const h = useHarness({}, { requests: true });

it("the replacement resumes the journaled order, and the old one's delete does not cancel it; the next replacement buys", async () => {
  const { id, outs, inputs } = await h.buy({ productCode: "sandbox-dv-single", domain: "replace-after-create.example.com" });
  const lines: string[] = [];
  const ctx = createContext({ type: "Order", settings: h.ctx.settings, sink: (level, line) => lines.push(`${level}: ${line}`) });
  await h.mgmt("DELETE", "/requests");

  const replacement = await handlers.create(ctx, inputs);
  expect(replacement.id).toBe(id);
  await handlers.delete!(ctx, id, outs as OrderState);
  expect(count(await h.operations(), "CancelOrder")).toBe(0);
  expect(lines.join("\n")).toMatch(/order CERT\d+ is not cancelled: this resource's replacement holds it/);
  const stored = (await h.mgmt("GET", `/orders/${id}`)) as { certStatus: number };
  expect(stored.certStatus).toBe(2);
  expect(await new PurchaseJournal(h.journalDir).read(inputs.journalKey)).toBeUndefined();

  // Run again: the journal is tidy, so the replacement buys, and the old order is cancelled.
  const again = await handlers.create(ctx, inputs);
  expect(again.id).not.toBe(id);
  await handlers.delete!(ctx, id, replacement.outs as OrderState);
  const ops = await h.operations();
  expect([count(ops, "CreateOrder"), count(ops, "CancelOrder")]).toEqual([1, 1]);
});
