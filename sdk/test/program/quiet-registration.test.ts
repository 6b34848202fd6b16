import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { quietRegistration } from "../../src/program/quiet-registration.js";

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${args.name}-id`, state: { ...args.inputs, orderNo: "CERT000" } }),
      call: () => ({}),
    },
    "proj",
    "dev",
    true,
  );
});

afterEach(() => {
  delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
});

const noopProvider: pulumi.dynamic.ResourceProvider = { create: async (inputs) => ({ id: "x", outs: inputs }) };

class Probe extends pulumi.dynamic.Resource {
  constructor(name: string, props: pulumi.Inputs) {
    using _registration = quietRegistration();
    super(noopProvider, name, props, undefined, "certreseller-test", "Probe");
  }
}

/**
 * Runs `construct` and counts the stack traces formatted meanwhile, by their
 * number of frames: what @pulumi/pulumi pays for in `new Error().stack`.
 */
function tracesDuring(construct: () => void): number[] {
  const original = Error.prepareStackTrace;
  const frames: number[] = [];
  Error.prepareStackTrace = (error, callSites) => {
    frames.push(callSites.length);
    return original ? original(error, callSites) : `${error}\n${callSites.map((c) => `    at ${c}`).join("\n")}`;
  };
  try {
    construct();
  } finally {
    Error.prepareStackTrace = original;
  }
  return frames;
}

describe("quietRegistration", () => {
  it("registers its properties without a stack trace each, and restores Error.stackTraceLimit", async () => {
    const { Order } = await import("../../src/resources/order.js");
    const limit = Error.stackTraceLimit;
    const quiet = tracesDuring(() => new Order("quiet", { productCode: "p", domain: "a.example.com" }));
    expect(Error.stackTraceLimit).toBe(limit);
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
    const kept = tracesDuring(() => new Order("kept", { productCode: "p", domain: "a.example.com" }));

    // Four promises per registered property (about twenty for an Order), each with a trace...
    const withFrames = (traces: number[]) => traces.filter((n) => n > 0).length;
    expect(withFrames(kept)).toBeGreaterThan(60);
    // ...none of which is captured with frames any more; what is left is
    // @pulumi/pulumi's own source-position capture, which sets its own limit.
    expect(withFrames(quiet)).toBeLessThanOrEqual(2);
  });

  it("keeps the source position the engine records (not governed by the suspended limit)", () => {
    const frames = tracesDuring(() => new Probe("positioned", { a: 1 }));
    // Resource.callsites() captures with an unlimited depth: one long trace.
    expect(Math.max(...frames)).toBeGreaterThan(5);
  });

  it("restores the limit when registration throws, and keeps the error's message", () => {
    const limit = Error.stackTraceLimit;
    let thrown: unknown;
    try {
      // @pulumi/pulumi refuses an empty name inside the base constructor.
      new Probe("", { a: 1 });
    } catch (error) {
      thrown = error;
    }
    expect(Error.stackTraceLimit).toBe(limit);
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toMatch(/name/i);
    // The program's next error has its frames again.
    expect(new Error("after").stack).toContain("quiet-registration.test.ts");
  });

  it("still resolves every registered output", async () => {
    const probe = new Probe("resolves", { a: 1, b: undefined }) as unknown as { a: pulumi.Output<number> };
    expect(await new Promise((resolve) => probe.a.apply(resolve))).toBe(1);
  });
});
