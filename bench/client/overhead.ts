/**
 * Per-call overhead of PartnerClient against a raw undici request to the same
 * local server with the same payload, measured side by side (interleaved) in
 * one run. Prints p50/p99 per variant and the client/raw ratios.
 *
 *   npm run bench:client            (defaults: 3000 measured calls per variant)
 *   npm run bench:client -- 10000   (more calls)
 *
 * The server runs in a worker thread so its work is not on the measured event
 * loop. "raw" = undici request + read body + JSON.parse: the least any caller
 * does. The client adds body encoding, envelope/zod validation, camelCase
 * mapping, the retry loop and timeout bookkeeping.
 */
import { Worker } from "node:worker_threads";
import { once } from "node:events";
import { Agent } from "undici";
import { PartnerClient } from "../../sdk/src/client/index.js";

const CALLS = Number(process.argv[2] ?? 3_000);
const WARMUP = Math.min(500, CALLS);
const KEY = "ak_benchbenchbenchbenchbenc:" + "b".repeat(64);

// Answers shaped as the specification shows them (GetRecord: section 4.6, records 2.5; money as numbers).
const record = { domain: "example.com", type: "main", label: "_dnsauth", record_type: "TXT", value: "t".repeat(43), hint: "publish a TXT record" };
const getRecord = {
  order_no: "CERT202611220930001234", cert_status: 2, verification_method: "dns",
  main_domain: "example.com", sans_domains: ["www.example.com"], wildcard_domains: [], all_domains: ["example.com", "www.example.com"], all_domains_count: 2,
  dns_records: [record, { ...record, domain: "www.example.com", type: "san" }], http_records: [], email_records: [],
  fetched_at: "2026-11-22T09:30:00+00:00",
};
const product = {
  product_name: "Sandbox DV Multi-Domain", product_code: "sandbox-dv-multi", product_type: "SSL", product_type_code: "ssl",
  verification_type: "Domain Validation", verification_type_code: "dv", domain_type: "Multi-Domain", domain_type_code: "multiple-single", brand: "Sandbox", brand_code: "sandbox",
  signature_algorithms: [{ name: "RSA", code: "rsa", category: "intl", description: null, encryption_strengths: [{ name: "RSA 2048", code: "rsa-2048" }, { name: "RSA 4096", code: "rsa-4096" }] }],
  hash_algorithms: [{ name: "SHA-256", code: "sha256" }],
  valid_years: [1, 2, 3].map((y) => ({ years: y, months: 12 * y, price: 100 * y, price_source: "user", san_price: 20, wildcard_price: null })),
  price_source: "user", has_custom_price: false, base_price: 100, original_price: 150, retail_price: 150, san_price: 20,
  wildcard_price: null, max_single_domains: 100, max_wildcards: 0,
};
const productPage = { user: { username: "bench" }, query: {}, products: { total: 50, page: 1, limit: 50, total_pages: 1, items: Array.from({ length: 50 }, (_, i) => ({ ...product, product_code: `p-${i}` })) } };

const SERVER = `
const { createServer } = require("node:http");
const { parentPort, workerData } = require("node:worker_threads");
const bodies = Object.fromEntries(Object.entries(workerData).map(([path, data]) => [path, JSON.stringify({ code: 200, message: "ok", data })]));
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => { res.writeHead(200, { "content-type": "application/json", "x-request-id": "bench" }); res.end(bodies[req.url]); });
});
server.listen(0, "127.0.0.1", () => parentPort.postMessage(server.address().port));
parentPort.on("message", () => server.close(() => process.exit(0)));
`;

interface Case {
  name: string;
  path: string;
  form: string;
  client: (c: PartnerClient) => Promise<unknown>;
}

const CASES: Case[] = [
  { name: `GetRecord (2 records, ${kb(getRecord)} KB)`, path: "/partner/GetRecord/", form: new URLSearchParams({ order_no: getRecord.order_no, apikey: KEY }).toString(), client: (c) => c.getRecord({ orderNo: getRecord.order_no }) },
  { name: `GetUserProduct (50 products, ${kb(productPage)} KB)`, path: "/partner/GetUserProduct/", form: new URLSearchParams({ page: "1", limit: "50", apikey: KEY }).toString(), client: (c) => c.listProducts({ page: 1, limit: 50 }) },
];

function kb(data: unknown): string {
  return (JSON.stringify({ code: 200, message: "ok", data }).length / 1024).toFixed(1);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const worker = new Worker(SERVER, { eval: true, workerData: { "/partner/GetRecord/": getRecord, "/partner/GetUserProduct/": productPage } });
  const [port] = (await once(worker, "message")) as [number];
  const origin = `http://127.0.0.1:${port}`;
  const warnings: string[] = [];
  const client = new PartnerClient({ baseUrl: origin, apiKey: KEY, retry: false, logger: { warn: (m) => warnings.push(m) } });
  // The payloads must be read in full, or the figures measure a client skipping what it cannot read.
  const records = await client.getRecord({ orderNo: getRecord.order_no });
  const page = await client.listProducts({ page: 1, limit: 50 });
  if (records.dnsRecords.length !== 2 || page.items.length !== 50 || warnings.length > 0) {
    throw new Error(`the client did not read the benchmark's answers in full: ${records.dnsRecords.length} records, ${page.items.length} products, warnings: ${warnings.join("; ")}`);
  }
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const headers = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };

  console.log(`client overhead vs raw undici — ${CALLS} calls per variant, interleaved, Node ${process.versions.node}, ${new Date().toISOString()}`);
  for (const c of CASES) {
    const raw = async () => {
      const res = await agent.request({ origin, path: c.path, method: "POST", headers, body: c.form });
      return JSON.parse(await res.body.text()) as unknown;
    };
    const times = { client: [] as number[], raw: [] as number[] };
    for (let i = 0; i < WARMUP + CALLS; i++) {
      // Alternate which goes first so neither benefits from a warmer connection or cache.
      const order = i % 2 === 0 ? (["client", "raw"] as const) : (["raw", "client"] as const);
      for (const variant of order) {
        const start = process.hrtime.bigint();
        await (variant === "client" ? c.client(client) : raw());
        const micros = Number(process.hrtime.bigint() - start) / 1_000;
        if (i >= WARMUP) times[variant].push(micros);
      }
    }
    const sorted = { client: times.client.sort((a, b) => a - b), raw: times.raw.sort((a, b) => a - b) };
    const p = (v: "client" | "raw", q: number) => percentile(sorted[v], q);
    console.log(`\n${c.name}`);
    console.log(`  raw undici   p50 ${p("raw", 50).toFixed(0).padStart(6)} µs   p99 ${p("raw", 99).toFixed(0).padStart(6)} µs`);
    console.log(`  PartnerClient p50 ${p("client", 50).toFixed(0).padStart(5)} µs   p99 ${p("client", 99).toFixed(0).padStart(6)} µs`);
    console.log(
      `  ratio client/raw: p50 ${(p("client", 50) / p("raw", 50)).toFixed(2)}×, p99 ${(p("client", 99) / p("raw", 99)).toFixed(2)}×; ` +
        `added per call at p50: ${(p("client", 50) - p("raw", 50)).toFixed(0)} µs`,
    );
  }
  await client.close();
  await agent.close();
  worker.postMessage("stop");
  await once(worker, "exit");
}

void main();
