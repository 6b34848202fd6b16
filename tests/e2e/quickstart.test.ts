// The quickstart example, run inline through the Automation API exactly as
// its index.ts runs it: preview shows the price and spends nothing, up issues
// a certificate that openssl verifies against the sandbox root, a second up
// changes nothing, no secret leaks, destroy refunds.
import type { OutputMap, PreviewResult, UpResult } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quickstart } from "../../examples/quickstart/program.js";
import { opensslVerify, pemCertificates } from "../support/openssl.js";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { backendText, createWorld, openStack, recorder, type E2eWorld, type Transcript } from "./harness/stack.js";
import type { Stack } from "@pulumi/pulumi/automation";

const DOMAIN = "quickstart.e2e.example.com";
// sandbox-dv-single (the quickstart's default product), 12 months.
const PRICE = "100.00";

describe("quickstart", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;
  let startingBalance: number;
  const transcripts: Transcript[] = [];
  let preview: PreviewResult;
  let up: UpResult;
  let outputs: OutputMap;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    world = createWorld(sandbox);
    stack = await openStack(world, "quickstart", async () => quickstart({ domain: DOMAIN }));
    startingBalance = Number((await sandbox.management.account(sandbox.username)).balance);
  });

  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await sandbox?.stop();
    world?.dispose();
  });

  it("previews the purchase with its quoted price and spends nothing", async () => {
    const t = recorder();
    transcripts.push(t);
    preview = await stack.preview({ diff: true, onOutput: t.onOutput, onError: t.onError, onEvent: t.onEvent });
    expect(preview.changeSummary.create).toBeGreaterThanOrEqual(3);
    expect(t.output).toMatch(new RegExp(`quotedPrice\\s*:\\s*"${PRICE.replace(".", "\\.")}"`));
    expect(await sandbox.management.orders()).toHaveLength(0);
    expect(Number((await sandbox.management.account(sandbox.username)).balance)).toBe(startingBalance);
  });

  it("up issues a certificate whose full chain openssl verifies against the sandbox root", async () => {
    const t = recorder();
    transcripts.push(t);
    up = await stack.up({ onOutput: t.onOutput, onError: t.onError, onEvent: t.onEvent });
    outputs = up.outputs;
    expect(up.summary.result).toBe("succeeded");

    const fullChain = String(outputs.fullChainPem?.value ?? "");
    expect(pemCertificates(fullChain).length).toBeGreaterThanOrEqual(2);
    expect(opensslVerify(fullChain, await sandbox.management.rootPem())).toMatch(/leaf\.pem: OK/);
    const { X509Certificate } = await import("node:crypto");
    const leaf = new X509Certificate(pemCertificates(fullChain)[0]!);
    expect(leaf.subjectAltName).toContain(`DNS:${DOMAIN}`);

    const orders = await sandbox.management.orders();
    expect(orders).toHaveLength(1);
    expect(orders[0]!.orderNo).toBe(outputs.orderNo?.value);
    expect(String(outputs.pricePaid?.value)).toBe(PRICE);
    expect(Number((await sandbox.management.account(sandbox.username)).balance)).toBeCloseTo(startingBalance - Number(PRICE), 2);
  });

  it("a second up changes nothing and buys nothing", async () => {
    await sandbox.management.clearRequests();
    const t = recorder();
    transcripts.push(t);
    const again = await stack.up({ onOutput: t.onOutput, onError: t.onError, onEvent: t.onEvent });
    const changes = Object.entries(again.summary.resourceChanges ?? {}).filter(([op, n]) => op !== "same" && n);
    expect(changes).toEqual([]);
    const counts = await sandbox.management.operationCounts();
    expect(counts.CreateOrder ?? 0).toBe(0);
    expect(counts.ApplySign ?? 0).toBe(0);
    expect(await sandbox.management.orders()).toHaveLength(1);
  });

  /** The secrets to look for: the whole key, its secret half alone, and two pieces of the private key. */
  function secretNeedles(): Record<string, string> {
    const privateKey = String(outputs.privateKeyPem?.value ?? "");
    expect(outputs.privateKeyPem?.secret).toBe(true);
    expect(privateKey).toMatch(/-----BEGIN [A-Z ]*PRIVATE KEY-----/);
    const keyBody = privateKey.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");
    const needles = {
      apiKey: sandbox.apiKey,
      apiKeySecretHalf: sandbox.apiKey.slice(sandbox.apiKey.indexOf(":") + 1),
      privateKeyLine: privateKey.split("\n")[1]!,
      privateKeyBody: keyBody.slice(0, 64),
    };
    for (const needle of Object.values(needles)) expect(needle.length).toBeGreaterThan(20);
    return needles;
  }

  function expectAbsent(haystacks: Record<string, string>): void {
    const needles = secretNeedles();
    for (const [where, text] of Object.entries(haystacks)) {
      expect(text.length, `${where} is empty: nothing was checked`).toBeGreaterThan(100);
      for (const [what, needle] of Object.entries(needles)) {
        expect(text.includes(needle), `${what} appears in plaintext in the ${where}`).toBe(false);
      }
    }
  }

  it("keeps the API key and the private key out of the state files and the captured output", () => {
    expectAbsent({ state: backendText(world), output: transcripts.map((t) => t.output).join("\n") });
  });

  // @pulumi/pulumi 3.270's Node runtime logs every RegisterResource response at
  // debug level (runtime/resource.js), secret outputs spelled out, and the engine
  // puts debug diagnostics into its event log; the SDK redacts those lines
  // (sdk/src/program/secret-debug-redaction.ts). This is what proves it works.
  it("keeps the API key and the private key out of the engine's event log", () => {
    expectAbsent({ events: JSON.stringify(transcripts.flatMap((t) => t.events)) });
  });

  it("destroy cancels the order and the refund reaches the balance", async () => {
    await stack.destroy();
    const [order] = await sandbox.management.orders();
    expect(order?.refund).toMatchObject({ mode: "direct", amount: PRICE });
    expect(Number((await sandbox.management.account(sandbox.username)).balance)).toBeCloseTo(startingBalance, 2);
  });
});
