import * as pulumi from "@pulumi/pulumi";
import { startSandbox, type RunningSandbox } from "certreseller-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAccount, getAccountOutput, getProducts, getProductsOutput } from "../../src/functions/index.js";
import { closeClients } from "../../src/provider/index.js";

// Pulumi's InvokeOptions / InvokeOutputOptions, as other providers' functions take them.
let sandbox: RunningSandbox;
/** When each mocked resource finished registering (ms since epoch). */
const createdAt = new Map<string, number>();

async function mocks(preview: boolean): Promise<void> {
  await pulumi.runtime.setMocks(
    {
      newResource: async (a) => {
        // A resource that takes a while to create: dependsOn must wait for it.
        await new Promise((r) => setTimeout(r, 400));
        createdAt.set(a.name, Date.now());
        return { id: preview ? undefined : `${a.name}-id`, state: a.inputs };
      },
      call: (a) => a.inputs,
    },
    "proj",
    "dev",
    preview,
  );
  pulumi.runtime.setAllConfig({ "certreseller:apiKey": sandbox.accounts[0]!.apiKey, "certreseller:baseUrl": sandbox.url }, ["certreseller:apiKey"]);
}

class Slow extends pulumi.CustomResource {
  constructor(name: string) {
    super("test:index:Slow", name, {});
  }
}
class Parent extends pulumi.ComponentResource {
  constructor(name: string) {
    super("test:index:Parent", name);
  }
}

function settle<T>(o: pulumi.Output<T>): Promise<{ known: boolean; value?: T }> {
  return (o as any).isKnown.then(async (known: boolean) => ({ known, value: known ? await new Promise<T>((r) => o.apply(r)) : undefined }));
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  delete process.env.CERTRESELLER_API_KEY;
  delete process.env.CERTRESELLER_BASE_URL;
  await mocks(false);
});
afterAll(async () => {
  await closeClients();
  await sandbox?.stop();
});

describe("InvokeOptions", () => {
  it("accepts parent (as inside a component) on all four functions", async () => {
    const parent = new Parent("p");
    expect((await getAccount({ parent })).user.username).toBe(sandbox.accounts[0]!.username);
    expect((await getProducts({ productCode: "sandbox-dv-single" }, { parent })).products.map((p) => p.productCode)).toEqual(["sandbox-dv-single"]);
    expect((await settle(getAccountOutput({ parent }))).value?.user.username).toBe(sandbox.accounts[0]!.username);
    expect((await settle(getProductsOutput({ productCode: "sandbox-dv-single" }, { parent }))).value?.products).toHaveLength(1);
  });

  it("refuses provider: there is no provider resource, the stack config chooses the account", async () => {
    const provider = { urn: "urn:x" } as unknown as pulumi.ProviderResource;
    await expect(getAccount({ provider })).rejects.toThrow(/getAccount: the provider option has no meaning here[\s\S]*certreseller:apiKey/);
    expect(() => getProductsOutput({}, { provider })).toThrow(/getProductsOutput: the provider option/);
  });

  it("dependsOn (Output variants) reads only after the resources exist", async () => {
    const slow = new Slow("slow-up");
    let calledAt = 0;
    const account = getAccountOutput({ dependsOn: [slow] }).apply((a) => ((calledAt = Date.now()), a));
    const products = getProductsOutput({ productCode: "sandbox-dv-single" }, { dependsOn: slow });
    expect((await settle(account)).value?.user.username).toBe(sandbox.accounts[0]!.username);
    expect((await settle(products)).value?.products).toHaveLength(1);
    expect(createdAt.get("slow-up")).toBeDefined();
    expect(calledAt).toBeGreaterThanOrEqual(createdAt.get("slow-up")!);
  });

  // Last: it switches the mocks to preview for the rest of the file.
  it("in a preview that creates the dependency, the result is unknown, as with other providers' functions", async () => {
    await mocks(true);
    const slow = new Slow("slow-preview");
    expect((await settle(getAccountOutput({ dependsOn: [slow] }))).known).toBe(false);
    expect((await settle(getAccountOutput())).known).toBe(true);
  });
});
