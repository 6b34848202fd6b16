import * as pulumi from "@pulumi/pulumi";
import { startSandbox, type RunningSandbox } from "certreseller-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOMAIN_TYPE_CODES } from "../../src/client/vocabulary.js";
import { getAccount, getAccountOutput, getProducts, getProductsOutput } from "../../src/functions/index.js";
import { closeClients } from "../../src/provider/index.js";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  delete process.env.CERTRESELLER_API_KEY;
  delete process.env.CERTRESELLER_BASE_URL;
  await pulumi.runtime.setMocks({ newResource: (a) => ({ id: "x", state: a.inputs }), call: (a) => a.inputs }, "proj", "dev", false);
});
afterAll(async () => {
  await closeClients();
  await sandbox?.stop();
});

function value<T>(o: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => o.apply(resolve));
}

describe("functions", () => {
  it("getAccount reads stack config (certreseller:apiKey/baseUrl), reports GetUserData's shape and never the key", async () => {
    const key = sandbox.accounts[0]!.apiKey;
    pulumi.runtime.setAllConfig({ "certreseller:apiKey": key, "certreseller:baseUrl": sandbox.url }, ["certreseller:apiKey"]);
    const account = await getAccount();
    expect(Object.keys(account).sort()).toEqual(["account", "apiKey", "serverTime", "user"]);
    expect(Object.keys(account.user).sort()).toEqual(["boundEmail", "boundPhone", "id", "partnerLevel", "status", "statusText", "userId", "userType", "username"]);
    expect(account.user).toMatchObject({ username: sandbox.accounts[0]!.username, status: 1 });
    expect(typeof account.user.id).toBe("number");
    // Money sits under account (spec 2.1), as two-place strings.
    expect(account.account).toEqual({
      balance: sandbox.accounts[0]!.balance,
      creditLine: sandbox.accounts[0]!.creditLine,
      creditUsed: "0.00",
      creditAvailable: sandbox.accounts[0]!.creditLine,
      trustedBalance: expect.stringMatching(/^\d+\.\d\d$/),
      totalAvailable: (Number(sandbox.accounts[0]!.balance) + Number(sandbox.accounts[0]!.creditLine)).toFixed(2),
    });
    expect(account.apiKey.appId).toBe(key.split(":")[0]);
    expect(Object.keys(account.apiKey).sort()).toEqual(["appId", "lastUsedIp"]);
    expect(account.serverTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(JSON.stringify(account)).not.toContain(key.split(":")[1]!);
    // The output form makes its own GetUserData call: the same answer, but for the server's clock, which may have ticked.
    expect(await value(getAccountOutput())).toEqual({ ...account, serverTime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) });
  });

  it("falls back to CERTRESELLER_API_KEY / CERTRESELLER_BASE_URL", async () => {
    pulumi.runtime.setAllConfig({});
    process.env.CERTRESELLER_API_KEY = sandbox.accounts[1]!.apiKey;
    process.env.CERTRESELLER_BASE_URL = sandbox.url;
    try {
      expect((await getAccount()).user.username).toBe(sandbox.accounts[1]!.username);
    } finally {
      delete process.env.CERTRESELLER_API_KEY;
      delete process.env.CERTRESELLER_BASE_URL;
    }
  });

  it("names the missing setting", async () => {
    pulumi.runtime.setAllConfig({});
    await expect(getAccount()).rejects.toThrow(/certreseller:apiKey.*CERTRESELLER_API_KEY/);
  });

  it("getProducts filters across pages; the Output variant takes Output filters", async () => {
    pulumi.runtime.setAllConfig({ "certreseller:apiKey": sandbox.accounts[0]!.apiKey, "certreseller:baseUrl": sandbox.url }, ["certreseller:apiKey"]);
    const all = await getProducts();
    expect(all.products.length).toBeGreaterThan(5);
    // The catalogue speaks the seven spec 2.3 domain type codes.
    expect(new Set(all.products.map((p) => p.domainTypeCode))).toEqual(new Set(DOMAIN_TYPE_CODES));
    const mix = await getProducts({ domainType: "multiple-mix" });
    expect(mix.products.length).toBeGreaterThan(0);
    expect(mix.products.every((p) => p.domainTypeCode === "multiple-mix")).toBe(true);
    expect(mix.products.map((p) => p.productCode)).toContain("sandbox-dv-flex");
    const ipv6 = await getProducts({ domainType: "ipv6" });
    expect(ipv6.products.map((p) => p.productCode)).toContain("sandbox-dv-ipv6");
    const one = await value(getProductsOutput({ productCode: pulumi.output("sandbox-dv-multi") }));
    expect(one.products.map((p) => p.productCode)).toEqual(["sandbox-dv-multi"]);
    expect(one.products[0]).toMatchObject({ domainTypeCode: "multiple-single", basePrice: expect.stringMatching(/^\d+\.\d\d$/) });
  });

  it("getProducts names the new code when given one of the old domain type codes", async () => {
    await expect(getProducts({ domainType: "flex" as never })).rejects.toThrow(/domainType "flex" is not a domain type code; it is now "multiple-mix" \(codes: single, wildcard, multiple-single/);
    await expect(getProducts({ domainType: "ip_multi" as never })).rejects.toThrow(/domainType "ip_multi" is not a domain type code \(codes: /);
  });
});
