/**
 * The CreateOrder body and the purchase digests are a contract with the
 * service and with journals written by earlier releases: any refactoring
 * must leave them byte-identical. Every combination of five purchase
 * dimensions (6^5 = 7,776, refused inputs included with their failures) is
 * hashed; the expected hash was computed by the release before the
 * table-driven create split. A deliberate change to the request or the
 * digest updates it, and says so in docs/upgrading.md.
 */
import { createHash } from "node:crypto";
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

/** Every combination of five purchase dimensions (6^5 = 7,776): failures, CreateOrder body (form and JSON) and purchase digests, hashed. */
function fingerprint(): { count: number; hash: string } {
  const hash = createHash("sha256");
  let count = 0;
  for (const [domain, sanDomains, wildcardDomains] of DOMAINS)
    for (const term of TERMS)
      for (const method of METHODS)
        for (const key of KEYS)
          for (const money of MONEY) {
            count++;
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
            hash.update(JSON.stringify(failures)).update(wire).update(digest).update(digests);
          }
  return { count, hash: hash.digest("hex") };
}

describe("CreateOrder body and purchase digests", () => {
  it("are byte-identical to the earlier release's for 7,776 input combinations", () => {
    const { count, hash } = fingerprint();
    expect(count).toBe(7776);
    expect(hash).toBe("c28339dfbff74fe0a5526d21afe5448a25779ca4946fa914df22578d4ecd2ce9");
  });
});
