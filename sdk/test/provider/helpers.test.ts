import { afterAll, describe, expect, it } from "vitest";
import {
  UNKNOWN,
  clientFor,
  closeClients,
  containsUnknown,
  createContext,
  createLog,
  isUnknown,
  MissingSettingError,
  partialFailure,
  PartialFailureError,
  readSettings,
  requireApiSettings,
  toPlainJson,
} from "../../src/provider/index.js";
import { PartnerClient } from "../../src/client/index.js";

describe("unknown placeholder", () => {
  it("is recognised at any depth", () => {
    expect(isUnknown(UNKNOWN)).toBe(true);
    expect(isUnknown("example.com")).toBe(false);
    expect(containsUnknown({ a: [1, { b: UNKNOWN }] })).toBe(true);
    expect(containsUnknown({ a: [1, { b: "x" }], c: null })).toBe(false);
  });
});

describe("toPlainJson", () => {
  it("drops undefined members and keeps JSON values", () => {
    expect(toPlainJson({ a: 1, b: undefined, c: { d: undefined, e: ["x", null] } })).toEqual({ a: 1, c: { e: ["x", null] } });
  });
  it("names the path of a value with no JSON form", () => {
    expect(() => toPlainJson({ a: { b: Buffer.from("x") } })).toThrow(/outputs\.a\.b is a Buffer/);
    expect(() => toPlainJson({ a: [undefined] })).toThrow(/outputs\.a\[0\] is undefined/);
    expect(() => toPlainJson({ n: Number.NaN })).toThrow(/outputs\.n is NaN/);
  });
});

describe("partialFailure", () => {
  it("carries id, reasons, cause and the __provider of the inputs", () => {
    const cause = new Error("ApplySign: 500");
    const err = partialFailure({
      id: "CERT1",
      inputs: { __provider: "exports.handler = ..." },
      outputs: { orderNo: "CERT1", requestId: undefined },
      reasons: ["ApplySign failed"],
      cause,
    });
    expect(err).toBeInstanceOf(PartialFailureError);
    expect(err.id).toBe("CERT1");
    expect(err.properties).toEqual({ orderNo: "CERT1", __provider: "exports.handler = ..." });
    expect(err.reasons).toEqual(["ApplySign failed"]);
    expect(err.cause).toBe(cause);
  });
});

afterAll(closeClients);

describe("settings", () => {
  const config = (values: Record<string, string>) => ({ get: (k: string) => values[k] });
  it("prefers stack config, falls back to the environment", () => {
    const env = { CERTRESELLER_API_KEY: "ak_env:secret", CERTRESELLER_BASE_URL: "http://env", CERTRESELLER_JOURNAL_DIR: "/tmp/j" };
    expect(readSettings(config({ "certreseller:apiKey": "ak_cfg:secret" }), env)).toEqual({
      apiKey: "ak_cfg:secret",
      baseUrl: "http://env",
      journalDir: "/tmp/j",
    });
    expect(readSettings(undefined, {}).journalDir).toMatch(/\.certreseller[/\\]journal$/);
  });
  it("names both the config key and the env var when the key is missing", () => {
    expect(() => requireApiSettings(readSettings(config({}), { CERTRESELLER_BASE_URL: "http://x" }))).toThrow(MissingSettingError);
    expect(() => requireApiSettings(readSettings(config({}), { CERTRESELLER_BASE_URL: "http://x" }))).toThrow(
      /certreseller:apiKey.*CERTRESELLER_API_KEY/,
    );
    expect(() => requireApiSettings(readSettings(config({}), { CERTRESELLER_API_KEY: "k" }))).toThrow(
      /certreseller:baseUrl.*CERTRESELLER_BASE_URL/,
    );
  });
  it("CERTRESELLER_NOW moves the provider's clock (renewal rehearsal) and is checked", () => {
    const settings = readSettings(undefined, { CERTRESELLER_NOW: "2027-11-01T00:00:00Z" });
    const now = createContext({ type: "Order", settings }).now();
    expect(Math.abs(now.getTime() - Date.parse("2027-11-01T00:00:00Z"))).toBeLessThan(5_000);
    expect(() => createContext({ type: "Order", settings: readSettings(undefined, { CERTRESELLER_NOW: "soon" }) })).toThrow(
      /CERTRESELLER_NOW="soon" is not an ISO 8601 date/,
    );
  });
  it("allowInsecureHttp: a clear yes or no from config or env, anything else refused naming both", () => {
    expect(readSettings(config({ "certreseller:allowInsecureHttp": "true" }), {}).allowInsecureHttp).toBe(true);
    expect(readSettings(undefined, { CERTRESELLER_ALLOW_INSECURE_HTTP: "1" }).allowInsecureHttp).toBe(true);
    expect(readSettings(config({ "certreseller:allowInsecureHttp": "false" }), { CERTRESELLER_ALLOW_INSECURE_HTTP: "true" }).allowInsecureHttp).toBe(false);
    expect(readSettings(undefined, {})).not.toHaveProperty("allowInsecureHttp");
    expect(() => readSettings(config({ "certreseller:allowInsecureHttp": "maybe" }), {})).toThrow(
      /certreseller:allowInsecureHttp \/ CERTRESELLER_ALLOW_INSECURE_HTTP must be true or false, not "maybe"/,
    );
  });
  it("plain http off loopback is refused unless allowInsecureHttp; the message names the config key, never the key", () => {
    const apiKey = "ak_insecurehttptest000000001:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    const settings = { apiKey, baseUrl: "http://partner.example.test", journalDir: "/tmp" };
    const err = (() => {
      try {
        clientFor(settings);
      } catch (e) {
        return e as Error;
      }
      throw new Error("expected a refusal");
    })();
    expect(err.message).toMatch(/plain http .*`pulumi config set certreseller:allowInsecureHttp true` or CERTRESELLER_ALLOW_INSECURE_HTTP=true/);
    expect(err.message).not.toContain(apiKey.split(":")[1]);
    // Each accepted: a client of that base URL (what it shows of itself), never the key.
    const accepted = (over: Partial<typeof settings> & { allowInsecureHttp?: boolean }) => {
      const client = clientFor({ ...settings, ...over });
      expect(client).toBeInstanceOf(PartnerClient);
      expect(JSON.stringify(client)).not.toContain(apiKey.split(":")[1]);
      return JSON.parse(JSON.stringify(client)) as { baseUrl: string };
    };
    expect(accepted({ allowInsecureHttp: true }).baseUrl).toBe("http://partner.example.test/");
    expect(accepted({ baseUrl: "http://127.0.0.1:1" }).baseUrl).toBe("http://127.0.0.1:1/");
    expect(accepted({ baseUrl: "https://partner.example.test" }).baseUrl).toBe("https://partner.example.test/");
    // One client per base URL and key, reused by every resource of the process.
    expect(clientFor({ ...settings, baseUrl: "https://partner.example.test" })).toBe(clientFor({ ...settings, baseUrl: "https://partner.example.test" }));
    expect(clientFor({ ...settings, baseUrl: "https://partner.example.test" })).not.toBe(clientFor({ ...settings, baseUrl: "http://127.0.0.1:1" }));
  });
  it("a context without a key fails only when the API is needed", () => {
    const ctx = createContext({ type: "Order", settings: readSettings(undefined, {}) });
    expect(() => ctx.api()).toThrow(/CERTRESELLER_API_KEY/);
  });
});

describe("log", () => {
  it("names the resource and scrubs secrets, including the secret half of the key", () => {
    const lines: string[] = [];
    const ctx = createContext({
      type: "Order",
      settings: { apiKey: "ak_abcdefghijklmnopqrstuvwx:supersecretpart", baseUrl: "http://x", journalDir: "/tmp" },
      sink: (level, line) => lines.push(`${level} ${line}`),
    });
    ctx.log("site").info("echo ak_abcdefghijklmnopqrstuvwx:supersecretpart and supersecretpart");
    ctx.log().warn("plain");
    expect(lines).toEqual(['info certreseller Order "site": echo *** and ***', "warn certreseller Order: plain"]);
  });
  it("ties lines to the resource when given its URN, and names it by its short name", () => {
    const seen: [string, string, string | undefined][] = [];
    const urn = "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::site";
    createLog({ type: "Order", name: urn, sink: (level, line, u) => seen.push([level, line, u]) }).warn("renewal due");
    createLog({ type: "Order", name: "proj/dev/other", sink: (level, line, u) => seen.push([level, line, u]) }).info("x");
    expect(seen).toEqual([
      ["warn", 'certreseller Order "site": renewal due', urn],
      ["info", 'certreseller Order "other": x', undefined],
    ]);
  });
  it("ignores empty secrets", () => {
    const lines: string[] = [];
    createLog({ type: "T", secrets: ["", undefined], sink: (_l, line) => lines.push(line) }).info("abc");
    expect(lines).toEqual(["certreseller T: abc"]);
  });
});
