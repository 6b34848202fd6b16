// `npx tsx bench/journal/plugin-start.ts`: how long the provider plugin takes to start (spawned until it prints
// its port, the moment the engine can talk to it), as it is (the journal's cloud SDKs are loaded only when a
// bucket journal is first used) and with the SDKs loaded at start (what importing them at the top would cost).
// Variants alternate round by round; medians and p90 of BENCH_ROUNDS (default 15) starts each.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.resolve(__dirname, "..", "..");
const plugin = path.join(root, "sdk", "bin", "pulumi-resource-certreseller");
const rounds = Number(process.env.BENCH_ROUNDS ?? "15");
const sdk = (name: string): string => require.resolve(name, { paths: [path.join(root, "sdk")] });

const variants: Array<{ name: string; preload: string[] }> = [
  { name: "as shipped (no cloud SDK loaded)", preload: [] },
  { name: "@aws-sdk/client-s3 loaded at start", preload: [sdk("@aws-sdk/client-s3")] },
  {
    name: "all three SDKs loaded at start",
    preload: [sdk("@aws-sdk/client-s3"), sdk("@google-cloud/storage"), sdk("@azure/storage-blob"), sdk("@azure/identity")],
  },
];

/** Milliseconds from spawn to the first line on stdout (the port); the process is then stopped. */
function startOnce(preload: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [...preload.flatMap((p) => ["--require", p]), plugin], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env } });
    let out = "";
    let err = "";
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      if (/^\d+\s*$/m.test(out)) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        child.kill("SIGKILL");
        resolve(ms);
      }
    });
    child.on("exit", (code) => {
      if (!/^\d+\s*$/m.test(out)) reject(new Error(`the plugin exited (${code}) before printing its port:\n${err}`));
    });
  });
}

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(root, "sdk", "dist", "cmd", "pulumi-resource-certreseller.js"))) throw new Error("build the SDK first: npm run build");
  const times = variants.map(() => [] as number[]);
  for (let i = 0; i < variants.length; i++) await startOnce(variants[i]!.preload); // warm the disk cache and the compile cache
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < variants.length; i++) times[i]!.push(await startOnce(variants[i]!.preload));
  }
  const base = quantile(times[0]!, 0.5);
  console.log(`plugin start to its port, ${rounds} rounds, node ${process.version}, NODE_COMPILE_CACHE ${process.env.NODE_COMPILE_CACHE ? "on" : "off"}`);
  console.log("| variant | median | p90 | vs as shipped |");
  console.log("|---|---|---|---|");
  variants.forEach((v, i) => {
    const median = quantile(times[i]!, 0.5);
    console.log(`| ${v.name} | ${median.toFixed(0)} ms | ${quantile(times[i]!, 0.9).toFixed(0)} ms | ${i === 0 ? "—" : `+${(median - base).toFixed(0)} ms`} |`);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
