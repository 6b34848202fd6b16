import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../src/provider/unknown.js";
import { SECRET_SIG, SIG_KEY, secretValue, unwrap, wrap } from "../../src/plugin/wire.js";

const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });

describe("plugin wire values", () => {
  it("unwraps secrets at any depth and remembers the top-level property", () => {
    const { values, secret: names } = unwrap({ apiKey: secret("ak_1:s"), companyInfo: { contact: { email: secret("a@b.c") } }, domain: "x.example.com" });
    expect(values).toEqual({ apiKey: "ak_1:s", companyInfo: { contact: { email: "a@b.c" } }, domain: "x.example.com" });
    expect([...names].sort()).toEqual(["apiKey", "companyInfo"]);
  });

  it("passes the unknown sentinel through unchanged, for the handlers' own preview rules", () => {
    expect(unwrap({ domain: UNKNOWN, sanDomains: [UNKNOWN] }).values).toEqual({ domain: UNKNOWN, sanDomains: [UNKNOWN] });
    expect(secretValue(UNKNOWN)).toBe(UNKNOWN);
  });

  it("refuses a resource reference or output value, naming the property path", () => {
    expect(() => unwrap({ orderNo: { [SIG_KEY]: "5cf8f73096256a8f31e491e813e4eb8e", urn: "u" } })).toThrow(/orderNo/);
    expect(() => unwrap({ list: [{ [SIG_KEY]: "d0e6a833031e9bbcd3f4e8bde6ca49a4" }] })).toThrow(/list\[0\]/);
  });

  it("wraps the named properties once, and drops undefined members", () => {
    const out = wrap({ privateKeyPem: "KEY", already: secret("x"), notAfter: "2027", gone: undefined }, ["privateKeyPem", "already", "absent"]);
    expect(out).toEqual({ privateKeyPem: secret("KEY"), already: secret("x"), notAfter: "2027" });
  });
});
