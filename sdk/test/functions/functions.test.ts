import * as pulumi from "@pulumi/pulumi";
import { startSandbox, type RunningSandbox } from "certreseller-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
  it("getAccount reads stack config (certreseller:apiKey/baseUrl) and never returns the key", async () => {
    const key = sandbox.accounts[0]!.apiKey;
    pulumi.runtime.setAllConfig({ "certreseller:apiKey": key, "certreseller:baseUrl": sandbox.url }, ["certreseller:apiKey"]);
    const account = await getAccount();
    expect(account.username).toBe(sandbox.accounts[0]!.username);
    expect(account.balance).toBe(sandbox.accounts[0]!.balance);
    expect(account.appId).toBe(key.split(":")[0]);
    expect(JSON.stringify(account)).not.toContain(key.split(":")[1]!);
    expect(await value(getAccountOutput())).toEqual(account);
  });

  it("falls back to CERTRESELLER_API_KEY / CERTRESELLER_BASE_URL", async () => {
    pulumi.runtime.setAllConfig({});
    process.env.CERTRESELLER_API_KEY = sandbox.accounts[1]!.apiKey;
    process.env.CERTRESELLER_BASE_URL = sandbox.url;
    try {
      expect((await getAccount()).username).toBe(sandbox.accounts[1]!.username);
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
    const wild = await getProducts({ domainType: "wildcard" });
    expect(wild.products.length).toBeGreaterThan(0);
    expect(wild.products.every((p) => p.domainTypeCode === "wildcard")).toBe(true);
    const one = await value(getProductsOutput({ productCode: pulumi.output("sandbox-dv-multi") }));
    expect(one.products.map((p) => p.productCode)).toEqual(["sandbox-dv-multi"]);
    expect(one.products[0]!.basePrice).toMatch(/^\d+\.\d\d$/);
  });
});
