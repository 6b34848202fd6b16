import * as fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, makeConsumerDir, runNodeIn } from "../../support/consumer.js";

let consumer: string;
beforeAll(() => {
  ensureBuilt();
  consumer = makeConsumerDir();
});
afterAll(() => {
  if (consumer) fs.rmSync(consumer, { recursive: true, force: true });
});

describe("handler modules named in state", () => {
  it("load through the stable entry from a project where only pulumi-certreseller is installed", async () => {
    // The calls the provider texts in state make, run by plain Node in that
    // project: earlier releases' `invoke` with a handler module path, and this
    // release's `require("pulumi-certreseller/provider").provider(name)` (provider-text.ts).
    const out = await runNodeIn(
      consumer,
      `const entry = require("pulumi-certreseller/dist/provider/entry.js");
       (async () => {
         const self = {};
         const r = {
           certificate: await entry.invoke(self, "resources/certificate/handlers.js", "check", [{}, { orderNo: "" }]),
           validation: await entry.invoke(self, "resources/validation/handlers.js", "check", [{}, { orderNo: "CERT1", domains: [] }]),
           named: await require("pulumi-certreseller/provider").provider("certificate").check({}, { orderNo: "" }),
         };
         console.log(JSON.stringify(r));
       })().catch((e) => { console.error(e); process.exit(1); });`,
    );
    const r = JSON.parse(out.trim().split("\n").pop()!);
    expect(r.certificate.failures.map((f: { property: string }) => f.property)).toEqual(["orderNo"]);
    expect(r.certificate.inputs.timeoutMinutes).toBe(60);
    expect(r.validation.failures.map((f: { property: string }) => f.property)).toEqual(["domains"]);
    expect(r.named).toEqual(r.certificate);
  });
});
