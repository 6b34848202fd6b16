/**
 * Sandbox throughput: requests/s and latency percentiles for GetRecord (a
 * read) and CreateOrder (a charge), from a bounded loopback load generator
 * (keep-alive, fixed concurrency, fixed request count) against the CLI in a
 * child process. CreateOrder runs side by side in memory and with
 * --data-dir, so the cost of persisting every charge shows as a ratio.
 *
 *   npm run bench:sandbox            (BENCH_REQUESTS=2000 BENCH_CONCURRENCY=16 to change)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const CLI = join(__dirname, "../../sandbox/src/cli.ts");

interface Started {
  child: ChildProcess;
  url: string;
  managementUrl: string;
  apiKey: string;
}

async function startServer(extra: string[]): Promise<Started> {
  const child = spawn(process.execPath, ["--import", "tsx", CLI, "--quiet", "--status-cooldown", "0", ...extra], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  const info = JSON.parse(line);
  // A rich account so thousands of CreateOrders never run out of money.
  const res = await fetch(`${info.managementUrl}/accounts`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "bench", balance: "100000000.00" }),
  });
  const account = (await res.json()) as { apiKey: string };
  return { child, url: info.url, managementUrl: info.managementUrl, apiKey: account.apiKey };
}

async function stopServer(s: Started): Promise<void> {
  const exited = new Promise((r) => s.child.once("exit", r));
  s.child.kill("SIGTERM");
  await exited;
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function post(url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

interface Figures {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  max: number;
}

async function load(label: string, n: number, makeRequest: (i: number) => Promise<void>): Promise<Figures> {
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        const i = next++;
        const s = performance.now();
        await makeRequest(i);
        latencies.push(performance.now() - s);
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number): number => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
  return { label, rps: n / elapsed, p50: pct(50), p99: pct(99), max: latencies.at(-1)! };
}

async function expectOk(url: string, body: object): Promise<any> {
  const r = await post(url, JSON.stringify(body));
  const env = JSON.parse(r.text);
  if (env.code !== 200) throw new Error(`${url}: ${env.code} ${env.message}`);
  return env.data;
}

const ORDER = { product_code: "sandbox-dv-multi", domain: "example.com", san_domains: ["www.example.com", "api.example.com"], signature_algorithm: "ecc" };

async function benchServer(label: string, extra: string[]): Promise<Figures[]> {
  const s = await startServer(extra);
  try {
    const op = (name: string): string => `${s.url}/partner/${name}/`;
    // Warm-up and fixtures: 50 issued orders to read records from (issuance
    // happens on the first read, so it is done here, outside the measurement).
    const orders: string[] = [];
    for (let i = 0; i < 50; i++) {
      const { order_no } = await expectOk(op("CreateOrder"), { apikey: s.apiKey, ...ORDER });
      await expectOk(op("ApplySign"), { apikey: s.apiKey, order_no });
      await expectOk(op("GetCertificateStatus"), { apikey: s.apiKey, order_no });
      orders.push(order_no);
    }
    // JIT warm-up of both paths, not measured.
    await load("warm-up", 300, async (i) => {
      await expectOk(op("GetRecord"), { apikey: s.apiKey, order_no: orders[i % orders.length] });
      await expectOk(op("CreateOrder"), { apikey: s.apiKey, ...ORDER });
    });
    const out: Figures[] = [];
    out.push(await load(`GetRecord    ${label}`, REQUESTS, async (i) => {
      await expectOk(op("GetRecord"), { apikey: s.apiKey, order_no: orders[i % orders.length] });
    }));
    out.push(await load(`CreateOrder  ${label}`, REQUESTS, async () => {
      await expectOk(op("CreateOrder"), { apikey: s.apiKey, ...ORDER });
    }));
    return out;
  } finally {
    await stopServer(s);
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "sandbox-bench-"));
  try {
    const memory = await benchServer("in-memory", []);
    const disk = await benchServer("--data-dir", ["--data-dir", dataDir]);
    console.log(`sandbox load: ${REQUESTS} requests per row, concurrency ${CONCURRENCY}, keep-alive loopback, server in a child process (node ${process.version})`);
    console.log("operation    mode           req/s     p50 ms   p99 ms   max ms");
    for (const f of [...memory, ...disk]) {
      console.log(`${f.label.padEnd(26)} ${f.rps.toFixed(0).padStart(7)} ${f.p50.toFixed(2).padStart(9)} ${f.p99.toFixed(2).padStart(8)} ${f.max.toFixed(2).padStart(8)}`);
    }
    const ratio = (a: Figures, b: Figures): string => (a.rps / b.rps).toFixed(2);
    console.log(`CreateOrder throughput in-memory / --data-dir: ${ratio(memory[1]!, disk[1]!)}x`);
    console.log(`GetRecord   throughput in-memory / --data-dir: ${ratio(memory[0]!, disk[0]!)}x`);
  } finally {
    agent.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
