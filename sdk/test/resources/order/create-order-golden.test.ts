/**
 * The CreateOrder body and the purchase digests are a contract with the
 * service and with journals written by earlier releases: any refactoring
 * must leave them byte-identical. Every combination of five purchase
 * dimensions (6^5 = 7,776, refused inputs included with their failures) is
 * hashed; the expected hash was computed by the release before the
 * table-driven create split. Beside it, create-order-golden.txt holds each
 * combination's own hash, so a failure names the combination that moved and
 * shows its body. A deliberate change to the request or the digest updates
 * both, and says so in docs/upgrading.md.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { createOrderInput } from "../../../src/client/requests.js";
import { encodeForm, encodeJson } from "../../../src/client/encoding.js";
import { purchaseDigest, purchaseInputDigests } from "../../../src/journal/index.js";
import { requestFor } from "../../../src/resources/order/buy.js";
import type { InputRecord, OrderInputs } from "../../../src/resources/order/inputs.js";
import { purchaseInputsOf } from "../../../src/resources/order/journal-entry.js";
import { normalizeOrder } from "../../../src/resources/order/normalize.js";

const DOMAINS: [string, string[], string[]][] = [
  ["example.com", [], []],
  ["Example.COM.", ["www.example.com"], []],
  ["*.example.com", [], []],
  ["203.0.113.5", [], []],
  ["a.example.com", ["c.example.com", "b.example.com"], []],
  ["example.com", [], ["*.example.com"]],
];
const TERMS: Record<string, unknown>[] = [{}, { years: 1 }, { years: 2 }, { months: 12 }, { months: 24 }, { years: 1, months: 24 }];
const METHODS: Record<string, unknown>[] = [{}, { verificationMethod: "dns" }, { verificationMethod: "cname" }, { verificationMethod: "file" }, { verificationMethod: "email-admin" }, { verificationMethod: "nope" }];
const KEYS: Record<string, unknown>[] = [{}, { signatureAlgorithm: "rsa" }, { signatureAlgorithm: "ecc" }, { signatureAlgorithm: "rsa", keySpec: "2048" }, { signatureAlgorithm: "ecc", keySpec: "prime256v1" }, { signatureAlgorithm: "ecc", keySpec: "4096" }];
const MONEY: Record<string, unknown>[] = [
  {},
  { paymentMethod: "credit" },
  { couponId: "COUPON-1" },
  { paymentMethod: "balance", couponId: "C2" },
  { companyInfo: { companyName: "Acme GmbH", countryCode: "de", contactFirst: "Muster", contactLast: "Erika", email: "ops@acme.test", province: "Berlin", city: "Berlin", registrationNo: "HRB 1" } },
  { paymentMethod: "wire" },
];

/** One combination: its place in the five dimensions (`d0t1m2k3y4`), its raw inputs, and what the contract makes of them. */
interface Combination {
  label: string;
  raw: Record<string, unknown>;
  /** Failures, CreateOrder body (form and JSON, or the refusal) and purchase digests, as hashed. */
  parts: { failures: string; wire: string; digest: string; digests: string };
}

/** Every combination of five purchase dimensions (6^5 = 7,776), in a fixed order. */
function combinations(): Combination[] {
  const found: Combination[] = [];
  DOMAINS.forEach(([domain, sanDomains, wildcardDomains], d) =>
    TERMS.forEach((term, t) =>
      METHODS.forEach((method, m) =>
        KEYS.forEach((key, k) =>
          MONEY.forEach((money, y) => {
            const raw = { journalKey: "urn:pulumi:dev::p::certreseller:index:Order::o", productCode: "sandbox-dv-multi", domain, sanDomains, wildcardDomains, ...term, ...method, ...key, ...money };
            const { values, failures } = normalizeOrder(raw);
            const inputs = values as unknown as OrderInputs;
            let wire: string;
            try {
              const fields = createOrderInput.parse(requestFor(inputs));
              wire = `${encodeForm(fields).body}\n${encodeJson(fields).body}`;
            } catch (error) {
              wire = `refused: ${(error as Error).message}`;
            }
            const purchase = purchaseInputsOf(inputs as unknown as InputRecord);
            const digest = purchaseDigest(inputs as unknown as InputRecord, purchase);
            const digests = JSON.stringify(purchaseInputDigests(inputs as unknown as InputRecord, purchase));
            found.push({ label: `d${d}t${t}m${m}k${k}y${y}`, raw, parts: { failures: JSON.stringify(failures), wire, digest, digests } });
          }),
        ),
      ),
    ),
  );
  return found;
}

const recordOf = ({ parts }: Combination) => parts.failures + parts.wire + parts.digest + parts.digests;

/** The hash over every combination's record in order: the same bytes the earlier release hashed. */
function fingerprint(all: Combination[]): string {
  const hash = createHash("sha256");
  for (const c of all) hash.update(c.parts.failures).update(c.parts.wire).update(c.parts.digest).update(c.parts.digests);
  return hash.digest("hex");
}

/**
 * The golden listing (create-order-golden.txt): a line per combination, its
 * label and the first 16 hex digits of its record's sha256, so a change names
 * the combination that moved. Written anew with UPDATE_CREATE_ORDER_GOLDEN=1
 * (the hash in the test still has to change by hand).
 */
const GOLDEN = path.join(__dirname, "create-order-golden.txt");
const listing = (all: Combination[]) => all.map((c) => `${c.label} ${createHash("sha256").update(recordOf(c)).digest("hex").slice(0, 16)}\n`).join("");

/** Which combinations differ from the golden listing, and the first one's inputs and record now; undefined when none does. */
function firstDifference(all: Combination[], golden: string): string | undefined {
  const expected = golden.split("\n").filter(Boolean);
  const actual = listing(all).split("\n").filter(Boolean);
  const differing = actual.map((line, i) => (line === expected[i] ? -1 : i)).filter((i) => i >= 0);
  if (differing.length === 0 && expected.length === actual.length) return undefined;
  if (differing.length === 0) return `the golden listing has ${expected.length} lines, the combinations are ${actual.length}`;
  const first = all[differing[0]!]!;
  return [
    `${differing.length} of ${all.length} combinations differ from ${path.basename(GOLDEN)}; the first is ${first.label} (golden: ${expected[differing[0]!] ?? "no line"}, now: ${actual[differing[0]!]}).`,
    `inputs: ${JSON.stringify(first.raw)}`,
    `failures: ${first.parts.failures}`,
    `CreateOrder body (form, then JSON): ${first.parts.wire}`,
    `purchase digest: ${first.parts.digest}`,
    `input digests: ${first.parts.digests}`,
    `others: ${differing.slice(1, 11).map((i) => all[i]!.label).join(", ")}${differing.length > 11 ? ", ..." : ""}`,
  ].join("\n");
}

describe("CreateOrder body and purchase digests", () => {
  it("are byte-identical to the earlier release's for 7,776 input combinations", () => {
    const all = combinations();
    expect(all).toHaveLength(7776);
    if (process.env.UPDATE_CREATE_ORDER_GOLDEN === "1") fs.writeFileSync(GOLDEN, listing(all));
    // First the combination that moved, by name; then the earlier release's hash over all of them.
    expect(firstDifference(all, fs.readFileSync(GOLDEN, "utf8"))).toBeUndefined();
    expect(fingerprint(all)).toBe("c28339dfbff74fe0a5526d21afe5448a25779ca4946fa914df22578d4ecd2ce9");
  });
});
