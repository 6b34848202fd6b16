/**
 * The preview-time checks the wildcard-and-ov README shows, run for real:
 * the Order provider's `check` (what the engine calls at `pulumi preview`),
 * loaded exactly as the serialized provider loads it, against a sandbox.
 * Nothing is bought by a check; the sandbox's order list proves it.
 */
import { startSandbox, type RunningSandbox } from "certreseller-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManagementClient } from "../../tests/support/sandbox-management";
import { EXAMPLE_COMPANY } from "../wildcard-and-ov/program";

// The stable entry the Order's serialized provider requires (see sdk/src/provider/entry.ts).
const entry = require("pulumi-certreseller/dist/provider/entry.js") as {
  configure(self: object, config: { get(key: string): string | undefined }): void;
  invoke(self: object, handlerModule: string, method: string, args: unknown[]): Promise<any>;
};

let sandbox: RunningSandbox;
const provider = {};

const exampleArgs = {
  productCode: "sandbox-ov-flex",
  domain: "example.com",
  sanDomains: ["www.example.com"],
  wildcardDomains: ["*.example.com", "*.api.example.com"],
  verificationMethod: "dns",
  companyInfo: { ...EXAMPLE_COMPANY } as Record<string, string>,
  journalKey: "examples/test/ov",
};

async function check(args: Record<string, unknown>): Promise<{ inputs: Record<string, unknown>; failures: { property: string; reason: string }[] }> {
  return entry.invoke(provider, "resources/order/handlers.js", "check", [{}, args]);
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: "127.0.0.1" });
  const config: Record<string, string> = { "certreseller:baseUrl": sandbox.url, "certreseller:apiKey": sandbox.accounts[0]!.apiKey };
  entry.configure(provider, { get: (key) => config[key] });
});

afterAll(async () => {
  await sandbox?.stop();
});

describe("wildcard-and-ov at preview", () => {
  it("accepts the example as written and quotes its price", async () => {
    const result = await check(exampleArgs);
    expect(result.failures).toEqual([]);
    expect(result.inputs.quotedPrice).toMatch(/^\d+\.\d{2}$/);
  });

  it("names a wildcard given as a plain SAN", async () => {
    const result = await check({ ...exampleArgs, sanDomains: ["www.example.com", "*.shop.example.com"] });
    expect(result.failures).toEqual([
      { property: "sanDomains", reason: '"*.shop.example.com" is a wildcard; list wildcards in wildcardDomains (or as domain)' },
    ]);
  });

  it("names a product that does not take wildcards", async () => {
    const result = await check({ ...exampleArgs, productCode: "sandbox-ov-single", sanDomains: [] });
    expect(result.failures).toEqual([
      {
        property: "wildcardDomains",
        reason: "sandbox-ov-single is a single product (exactly one plain domain; no sanDomains, no wildcardDomains): wildcardDomains must be empty",
      },
    ]);
  });

  it("names each missing or malformed company field", async () => {
    const { contactFirst: _family, ...withoutFamilyName } = EXAMPLE_COMPANY;
    const result = await check({ ...exampleArgs, companyInfo: { ...withoutFamilyName, countryCode: "Germany" } });
    expect(result.failures).toEqual([
      { property: "companyInfo.contactFirst", reason: "is required (spec 2.4) and must be a non-empty string" },
      { property: "companyInfo.countryCode", reason: '"Germany" is not a two-letter country/region code (e.g. "DE")' },
    ]);
  });

  it("requires the company on an OV product", async () => {
    const { companyInfo: _c, ...withoutCompany } = exampleArgs;
    const result = await check(withoutCompany);
    expect(result.failures).toEqual([
      {
        property: "companyInfo",
        reason:
          "sandbox-ov-flex is OV: give companyInfo (at least companyName, countryCode, contactFirst, contactLast, email) or companyId",
      },
    ]);
  });

  it("bought nothing", async () => {
    expect(await ManagementClient.of(sandbox).orders()).toEqual([]);
  });
});
