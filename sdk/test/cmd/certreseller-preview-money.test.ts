// `certreseller-preview-money` (sdk/src/cmd/certreseller-preview-money.ts):
// its options, exit codes and output on a saved preview digest; the money
// rules it prints are tested in test/money.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseArgs, run } from "../../src/cmd/certreseller-preview-money.js";
import { ORDER_TYPE } from "../../src/money/index.js";

const NOW = new Date("2026-11-25T12:00:00.000Z");

describe("certreseller-preview-money command", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "preview-money-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  let digests = 0;
  const digestFile = (digest: unknown) => {
    const file = path.join(dir, `preview-${++digests}.json`);
    fs.writeFileSync(file, JSON.stringify(digest));
    return file;
  };
  // Order "a" is bought; Order "b" (paid a day ago) is replaced: bought again, its order cancelled.
  const bought = { orderNo: "CERT1", paidAt: "2026-11-24T12:00:00.000Z", price: { basePrice: "100.00", total: "100.00" }, quotedPrice: "100.00" };
  const quoted = { domain: "x.example.com", quotedPrice: "100.00" };
  const step = (op: string, name: string, state: { old?: object; new?: object }) => ({
    op,
    urn: `urn:pulumi:dev::shop::${ORDER_TYPE}::${name}`,
    ...(state.old ? { oldState: { type: ORDER_TYPE, outputs: state.old } } : {}),
    ...(state.new ? { newState: { type: ORDER_TYPE, inputs: state.new } } : {}),
  });
  const file = digestFile({
    steps: [
      step("create", "a", { new: quoted }),
      step("create-replacement", "b", { old: bought, new: quoted }),
      step("replace", "b", { old: bought, new: quoted }),
      step("delete-replaced", "b", { old: bought }),
    ],
  });

  it("parses its options and passes what follows -- to pulumi preview", () => {
    expect(parseArgs(["--max-spend", "500", "--", "--stack", "prod"], {})).toMatchObject({ maxSpend: 500, previewArgs: ["--stack", "prod"] });
    expect(parseArgs([], { CERTRESELLER_NOW: "2027-01-01T00:00:00Z" }).now?.toISOString()).toBe("2027-01-01T00:00:00.000Z");
    expect(() => parseArgs(["--max-spend", "lots"], {})).toThrow(/--max-spend/);
    expect(() => parseArgs(["--stack", "prod"], {})).toThrow(/after --/);
  });

  it("prints the summary and exits 0 within the cap, 1 above it", async () => {
    const within = await run(["--input", file, "--now", NOW.toISOString(), "--max-spend", "200"], {});
    expect(within.code).toBe(0);
    expect(within.stdout).toContain("This update buys 2 certificates (200.00), cancels 1 (refund 100.00 if run before 2026-12-01 12:00 UTC).");
    expect(within.stdout).toContain("  cancel  b: order CERT1, paid 100.00, refunded if cancelled before 2026-12-01 12:00 UTC");
    const above = await run(["--input", file, "--now", NOW.toISOString(), "--max-spend", "199.99"], {});
    expect(above.code).toBe(1);
    expect(above.stderr).toContain("spend cap exceeded: this update buys 200.00, above the cap of 199.99 (a 100.00, b 100.00)");
  });

  it("--json prints the summary as data", async () => {
    const out = await run(["--input", file, "--now", NOW.toISOString(), "--json"], {});
    expect(JSON.parse(out.stdout)).toMatchObject({ spend: 200, refunds: 100, maxSpend: null, violations: [] });
  });

  it("exits 2 on bad arguments, an unreadable digest or a pulumi that cannot run", async () => {
    expect((await run(["--bogus"], {})).code).toBe(2);
    expect((await run(["--input", path.join(os.tmpdir(), "no-such-preview.json")], {})).code).toBe(2);
    const missing = await run(["--pulumi", path.join(os.tmpdir(), "no-such-pulumi")], {});
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/could not run/);
  });
});
