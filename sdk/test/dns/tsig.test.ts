/**
 * TSIG (RFC 8945) against messages BIND itself signed: nsupdate's requests
 * and named's answers, recorded by scripts/dns/tsig-vectors.ts
 * (fixtures/bind-tsig-vectors.json, a made-up test key). RFC 8945 has no
 * test vectors of its own; agreeing byte for byte with BIND is the test.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parseTsigSecret, serverTimeOf, signMessage, splitSigned, TSIG_ALGORITHMS, verifyMessage, type TsigAlgorithm, type TsigKey } from "../../src/dns/tsig.js";

const vectors = JSON.parse(fs.readFileSync(path.join(__dirname, "fixtures/bind-tsig-vectors.json"), "utf8")) as {
  key: { name: string; algorithm: TsigAlgorithm; secret: string };
  wrongSecret: string;
  add: { request: string; response: string };
  replace: { request: string; response: string };
  badsig: { request: string; response: string };
};
const hex = (s: string) => Buffer.from(s, "hex");
const KEY: TsigKey = { name: vectors.key.name, algorithm: vectors.key.algorithm, secret: parseTsigSecret(vectors.key.secret)! };

describe("TSIG against BIND's own signatures", () => {
  for (const which of ["add", "replace"] as const) {
    const request = hex(vectors[which].request);
    const response = hex(vectors[which].response);
    const signedAt = splitSigned(request)!.record.timeSigned;

    it(`${which}: nsupdate's request verifies with our MAC computation`, () => {
      const verdict = verifyMessage(request, KEY, { nowSeconds: signedAt });
      expect(verdict.ok).toBe(true);
      if (verdict.ok) expect(verdict.record).toMatchObject({ keyName: "vector-key", algorithm: "hmac-sha256", fudge: 300, error: 0 });
    });

    it(`${which}: signing nsupdate's unsigned message at the same time gives its bytes exactly`, () => {
      const { unsigned, record } = splitSigned(request)!;
      const { signed, mac } = signMessage(unsigned, KEY, { timeSigned: record.timeSigned, fudge: record.fudge });
      expect(signed.toString("hex")).toBe(request.toString("hex"));
      expect(mac.equals(record.mac)).toBe(true);
    });

    it(`${which}: named's answer verifies over the request's MAC`, () => {
      const requestMac = splitSigned(request)!.record.mac;
      expect(verifyMessage(response, KEY, { nowSeconds: signedAt, priorMac: requestMac }).ok).toBe(true);
      // Without the request's MAC (or with another) the same answer does not verify.
      expect(verifyMessage(response, KEY, { nowSeconds: signedAt })).toMatchObject({ ok: false, reason: "bad-mac" });
      expect(verifyMessage(response, KEY, { nowSeconds: signedAt, priorMac: Buffer.alloc(32) })).toMatchObject({ ok: false, reason: "bad-mac" });
    });
  }

  it("named's BADSIG answer: RCODE NOTAUTH, TSIG error 16, an empty MAC", () => {
    const response = hex(vectors.badsig.response);
    expect(response.readUInt16BE(2) & 0xf).toBe(9);
    const verdict = verifyMessage(response, KEY, { nowSeconds: splitSigned(response)!.record.timeSigned });
    expect(verdict).toMatchObject({ ok: false, reason: "tsig-error", detail: "BADSIG" });
    expect(splitSigned(response)!.record.mac.length).toBe(0);
  });

  it("nsupdate's request signed with the wrong secret does not verify with the right one", () => {
    const request = hex(vectors.badsig.request);
    expect(verifyMessage(request, KEY, { nowSeconds: splitSigned(request)!.record.timeSigned })).toMatchObject({ ok: false, reason: "bad-mac" });
    const wrong = { ...KEY, secret: parseTsigSecret(vectors.wrongSecret)! };
    expect(verifyMessage(request, wrong, { nowSeconds: splitSigned(request)!.record.timeSigned }).ok).toBe(true);
  });
});

describe("sign → verify", () => {
  const message = hex(vectors.add.request).subarray(0, splitSigned(hex(vectors.add.request))!.unsigned.length);
  const unsigned = splitSigned(hex(vectors.add.request))!.unsigned;
  const now = 1_800_000_000;

  for (const algorithm of Object.keys(TSIG_ALGORITHMS) as TsigAlgorithm[]) {
    it(`round trip with ${algorithm}`, () => {
      const key = { ...KEY, algorithm };
      const { signed, mac } = signMessage(unsigned, key, { timeSigned: now });
      expect(verifyMessage(signed, key, { nowSeconds: now }).ok).toBe(true);
      expect(mac.length).toBe({ "hmac-sha1": 20, "hmac-sha224": 28, "hmac-sha256": 32, "hmac-sha384": 48, "hmac-sha512": 64 }[algorithm]);
      // The additional count now includes the TSIG record.
      expect(signed.readUInt16BE(10)).toBe(unsigned.readUInt16BE(10) + 1);
    });
  }

  it("detects any altered byte of the signed part", () => {
    const { signed } = signMessage(unsigned, KEY, { timeSigned: now });
    for (const at of [2, 3, 5, 12, 20, message.length - 1, signed.length - 5]) {
      const altered = Buffer.from(signed);
      altered[at]! ^= 0x20;
      // A count or length altered can make the message unreadable: that throws, which is a refusal too.
      const outcome = (() => {
        try {
          return verifyMessage(altered, KEY, { nowSeconds: now }).ok;
        } catch {
          return "unreadable";
        }
      })();
      expect(outcome, `byte ${at}`).not.toBe(true);
    }
  });

  // The MAC covers the Original ID of the TSIG record, not the header's ID, which a
  // forwarder may change (RFC 8945 4.3.1); the client matches the answer's ID itself.
  it("covers the Original ID, not the header's ID", () => {
    const { signed } = signMessage(unsigned, KEY, { timeSigned: now });
    const newId = Buffer.from(signed);
    newId.writeUInt16BE(newId.readUInt16BE(0) ^ 0xffff, 0);
    expect(verifyMessage(newId, KEY, { nowSeconds: now }).ok).toBe(true);
    const newOriginal = Buffer.from(signed);
    newOriginal.writeUInt16BE(newOriginal.readUInt16BE(signed.length - 6) ^ 0xffff, signed.length - 6);
    expect(verifyMessage(newOriginal, KEY, { nowSeconds: now })).toMatchObject({ ok: false, reason: "bad-mac" });
  });

  it("refuses another key's or algorithm's signature", () => {
    const { signed } = signMessage(unsigned, KEY, { timeSigned: now });
    expect(verifyMessage(signed, { ...KEY, name: "other-key." }, { nowSeconds: now })).toMatchObject({ ok: false, reason: "other-key" });
    expect(verifyMessage(signed, { ...KEY, algorithm: "hmac-sha512" }, { nowSeconds: now })).toMatchObject({ ok: false, reason: "other-key" });
    expect(verifyMessage(signed, { ...KEY, secret: Buffer.from("another secret") }, { nowSeconds: now })).toMatchObject({ ok: false, reason: "bad-mac" });
  });

  it("accepts a signature within the 300 s fudge and refuses one outside it", () => {
    const { signed } = signMessage(unsigned, KEY, { timeSigned: now });
    expect(verifyMessage(signed, KEY, { nowSeconds: now + 300 }).ok).toBe(true);
    expect(verifyMessage(signed, KEY, { nowSeconds: now - 300 }).ok).toBe(true);
    expect(verifyMessage(signed, KEY, { nowSeconds: now + 301 })).toMatchObject({ ok: false, reason: "bad-time" });
    expect(verifyMessage(signed, KEY, { nowSeconds: now - 301 })).toMatchObject({ ok: false, reason: "bad-time" });
  });

  it("a message without a TSIG record is unsigned", () => {
    expect(verifyMessage(unsigned, KEY, { nowSeconds: now })).toEqual({ ok: false, reason: "unsigned" });
  });

  it("reads the server's clock from a BADTIME record's other data", () => {
    const record = { ...splitSigned(hex(vectors.add.request))!.record, otherData: Buffer.from([0, 0, 0x6b, 0x07, 0x12, 0x2c]) };
    expect(serverTimeOf(record)).toBe(0x6b07122c);
    expect(serverTimeOf({ ...record, otherData: Buffer.alloc(0) })).toBeUndefined();
  });
});

describe("parseTsigSecret", () => {
  it("takes strict base64 only", () => {
    expect(parseTsigSecret(vectors.key.secret)?.toString()).toBe("certreseller tsig test vector key");
    expect(parseTsigSecret("c2VjcmV0")?.toString()).toBe("secret");
    for (const bad of ["", "not base64!", "abc", "c2VjcmV0=x", "===="]) expect(parseTsigSecret(bad), bad).toBeUndefined();
  });
});
