import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";

const KEY = "ak_classtestkey000000000001:fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210";

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}
const registered: Registered[] = [];

beforeAll(async () => {
  // A key in the program's environment must never reach the provider text.
  process.env.CERTRESELLER_API_KEY = KEY;
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        // What a provider reports for inputs the program left out: the defaults `check` filled in, the method applied.
        const reported = args.name === "minimal" ? { keySpec: "rsa-2048", verificationMethod: "dns", months: 12 } : {};
        return { id: `${args.name}-id`, state: { ...args.inputs, ...reported, orderNo: "CERT000" } };
      },
      call: () => ({}),
    },
    "proj",
    "dev",
    true,
  );
});

function output<T>(o: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => o.apply(resolve));
}

describe("Order class under setMocks", () => {
  it("registers its own type token, passes the journal key and a small credential-free provider", async () => {
    const { Order } = await import("../../../src/resources/order.js");
    const order = new Order("site", { productCode: "sandbox-dv-multi", domain: "Example.com", sanDomains: ["www.example.com", "API.example.com"] });
    expect(await output(order.orderNo)).toBe("CERT000");
    expect(Order.__pulumiType).toBe("pulumi-nodejs:dynamic/certreseller:Order");
    const reg = registered.find((r) => r.name === "site")!;
    expect(reg.type).toBe(Order.__pulumiType);
    expect(reg.inputs.journalKey).toBe("urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::site");
    const provider = reg.inputs.__provider as string;
    expect(typeof provider).toBe("string");
    expect(provider.length).toBeLessThan(100);
    expect(provider).not.toContain(KEY.split(":")[1]);
    expect(provider).not.toContain("ak_classtestkey");
    expect(provider).toBe('exports.handler = () => require("pulumi-certreseller/provider").provider("order");');
    expect(await output(order.orderedNames)).toEqual(["example.com", "api.example.com", "www.example.com"]);
  });

  it("does not clobber outputs with class fields (declare readonly)", async () => {
    const { Order } = await import("../../../src/resources/order.js");
    const order = new Order("second", { productCode: "p", domain: "a.example.com" });
    expect(await output(order.domain)).toBe("a.example.com");
    expect(await output(order.productCode)).toBe("p");
  });
});

describe("every declared property exists at run time", () => {
  it("an Order with only its required inputs has an Output for every declared property, registered so the provider's value reaches it", async () => {
    const { Order } = await import("../../../src/resources/order.js");
    const { ORDER } = await import("../../../src/resources/order/declaration.js");
    const order = new Order("minimal", { productCode: "p", domain: "m.example.com" });
    const names = Object.keys(ORDER.properties);
    const missing = names.filter((name) => !pulumi.Output.isInstance((order as unknown as Record<string, unknown>)[name]));
    expect(missing).toEqual([]);
    // Registered by name even when the program left it out, so the provider's value reaches it.
    expect(await output(order.keySpec)).toBe("rsa-2048");
    expect(await output(order.verificationMethod)).toBe("dns");
    expect(await output(order.months)).toBe(12);
  });
});
