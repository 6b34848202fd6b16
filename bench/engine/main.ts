// `npm run bench:engine`: what the provider adds to the engine's own cost.
// For 20 and 100 certificates, `pulumi up` of the real graph against the
// sandbox (instant issuance, no latency, no cooldown) and of the same graph
// made of no-op dynamic resources, side by side in one run; then the Partner
// API calls per certificate and per `preview` from the sandbox request log.
// Figures only: nothing here passes or fails.
import { spawn, type ChildProcess } from "node:child_process";
import * as readline from "node:readline";
import type { PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { ensureEngine, inlineStack, isolatedEnvironment } from "../../scripts/engine/index.js";
import { ManagementClient } from "../../tests/e2e/harness/management.js";
import { certificateGraph, noopGraph } from "./graphs.js";

const COUNTS = (process.env.BENCH_COUNTS ?? "20,100").split(",").map(Number);
const PRODUCT_CODE = process.env.BENCH_PRODUCT_CODE ?? "sandbox-dv-single";
// The machine is shared: each side runs this many times, alternating, and the median is reported.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SIGNATURE_ALGORITHM = (process.env.BENCH_SIGNATURE_ALGORITHM ?? "ecc") as "rsa" | "ecc";

interface Timing {
  upSeconds: number;
  destroySeconds: number;
  /** Size of the stack's checkpoint after `up`: the file backend rewrites all of it after every step. */
  stateBytes: number;
}

async function main(): Promise<void> {
  const engine = await ensureEngine({ log: (line) => console.error(`[engine] ${line}`) });
  const environment = isolatedEnvironment(engine);
  const sandbox = await startSandboxProcess();
  const management = new ManagementClient(sandbox.managementUrl);
  await management.setConfig({ validation: "auto", issueAfterSeconds: 0, statusCooldownSeconds: 0, methodCooldownSeconds: 0 });
  // One account rich enough for every graph of the run (100 certificates cost 10,000 before refunds).
  const account = await management.createAccount({ username: "bench", balance: "1000000.00" });
  const config = {
    "certreseller:apiKey": { value: account.apiKey, secret: true },
    "certreseller:baseUrl": { value: sandbox.url },
    "certreseller:journalDir": { value: `${environment.homeDir}/journal` },
  };
  console.log(`pulumi v${engine.version} (${engine.source}); node ${process.version}; sandbox ${sandbox.url} (own process); keys ${SIGNATURE_ALGORITHM}`);

  const run = async (name: string, program: PulumiFn, between?: (stack: Stack) => Promise<void>): Promise<Timing> => {
    const stack = await inlineStack({ environment, projectName: `bench-${name}`, stackName: "bench", program, config });
    let started = performance.now();
    await stack.up();
    const upSeconds = (performance.now() - started) / 1000;
    const stateBytes = JSON.stringify((await stack.exportStack()).deployment).length;
    await between?.(stack);
    started = performance.now();
    await stack.destroy();
    const destroySeconds = (performance.now() - started) / 1000;
    await stack.workspace.removeStack("bench");
    return { upSeconds, destroySeconds, stateBytes };
  };

  try {
    for (const count of COUNTS) {
      const settings = { count, productCode: PRODUCT_CODE, managementUrl: sandbox.managementUrl, signatureAlgorithm: SIGNATURE_ALGORITHM };
      const noops: Timing[] = [];
      const reals: Timing[] = [];
      let upCalls: Record<string, number> = {};
      let previewCalls: Record<string, number> = {};
      let failure: string | undefined;
      for (let round = 0; round < ROUNDS && !failure; round++) {
        noops.push(await run(`noop-${count}-${round}`, noopGraph(settings)));
        await management.clearRequests();
        try {
          reals.push(
            await run(`real-${count}-${round}`, certificateGraph(settings), async (stack) => {
              upCalls = await management.operationCounts();
              // A preview of the whole stack, settled (no changes): what a routine CI preview costs.
              await management.clearRequests();
              await stack.preview();
              previewCalls = await management.operationCounts();
            }),
          );
        } catch (error) {
          failure = String((error as Error).message).split("\n").find((l) => /error|Error/.test(l)) ?? String(error);
        }
      }
      const noop = median(noops);
      console.log(`\n${count} certificates (${count * 4} resources), median of ${noops.length}`);
      console.log(`  no-op graph   up ${noop.upSeconds.toFixed(1)} s   destroy ${noop.destroySeconds.toFixed(1)} s`);
      if (failure) {
        // Still a figure: say the real side could not be measured, and why.
        console.log(`  real graph    FAILED: ${failure}`);
        process.exitCode = 1;
        continue;
      }
      const real = median(reals);
      console.log(`  real graph    up ${real.upSeconds.toFixed(1)} s   destroy ${real.destroySeconds.toFixed(1)} s`);
      console.log(`  checkpoint    real ${(real.stateBytes / 1024).toFixed(0)} KiB (${(real.stateBytes / count / 1024).toFixed(1)} KiB per certificate) vs no-op ${(noop.stateBytes / 1024).toFixed(0)} KiB`);
      console.log(`  ratio         up ${(real.upSeconds / noop.upSeconds).toFixed(2)}x (target <= 1.3x)   destroy ${(real.destroySeconds / noop.destroySeconds).toFixed(2)}x`);
      console.log(`  Partner API calls per certificate during up: ${perCertificate(upCalls, count)}`);
      console.log(`  Partner API calls for one preview of the whole stack: ${describe(previewCalls)}`);
    }
  } finally {
    sandbox.process.kill("SIGTERM");
    environment.dispose();
  }
}

/**
 * The sandbox in a process of its own, as the real service is remote. Inside
 * the benchmark's process its request handling and certificate signing would
 * run on the event loop that also runs the Pulumi program (the Automation API
 * runs inline programs in-process) and delay every registration.
 */
async function startSandboxProcess(): Promise<{ url: string; managementUrl: string; process: ChildProcess }> {
  const child = spawn(process.execPath, [require.resolve("certreseller-sandbox/bin/certreseller-sandbox.js"), "--port", "0", "--host", "127.0.0.1", "--quiet"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the sandbox exited with ${code} before printing its address`)));
  });
  const { url, managementUrl } = JSON.parse(firstLine) as { url: string; managementUrl: string };
  return { url, managementUrl, process: child };
}

function median(timings: Timing[]): Timing {
  const mid = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    upSeconds: mid(timings.map((t) => t.upSeconds)),
    destroySeconds: mid(timings.map((t) => t.destroySeconds)),
    stateBytes: mid(timings.map((t) => t.stateBytes)),
  };
}

function perCertificate(counts: Record<string, number>, count: number): string {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const parts = Object.entries(counts).map(([operation, n]) => `${operation} ${(n / count).toFixed(2)}`);
  return `${(total / count).toFixed(2)} (${parts.join(", ")})`;
}

function describe(counts: Record<string, number>): string {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return `${total} (${Object.entries(counts).map(([operation, n]) => `${operation} ${n}`).join(", ") || "none"})`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
