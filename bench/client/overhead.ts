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
 *
 * Product lists: the sandbox's real list (fetched once from a sandbox started
 * here, then served as sent) and a list of about 57 KB (the sandbox's items
 * repeated under new codes: the size of a real reseller's list). Then the
 * reading alone, without HTTP: JSON.parse against JSON.parse + the client's
 * tolerant reader, best of several batches (the machine may be shared).
 */
import { Worker } from "node:worker_threads";
import { once } from "node:events";
import { startSandbox } from "certreseller-sandbox";
import { Agent } from "undici";
import { PartnerClient } from "../../sdk/src/client/index.js";
import { ReadContext, RESPONSE_READERS } from "../../sdk/src/client/schemas/index.js";

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
/** The size of a real reseller's product list (issue 14): about 57 KB of JSON. */
const LARGE_LIST_BYTES = 57 * 1024;

type ProductPageData = { products: { items: Record<string, unknown>[] } & Record<string, unknown> } & Record<string, unknown>;

/** The sandbox's own product list, every product on one page, as the sandbox sends it. */
async function sandboxProductPage(): Promise<ProductPageData> {
  const sandbox = await startSandbox({ port: 0, logRequests: false });
  try {
    const res = await fetch(`${sandbox.url}/partner/GetUserProduct/`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ apikey: sandbox.accounts[0]!.apiKey, limit: "500" }),
    });
    return ((await res.json()) as { data: ProductPageData }).data;
  } finally {
    await sandbox.stop();
  }
}

/** The sandbox's items repeated under new codes until the answer is `bytes` long. */
function largeProductPage(real: ProductPageData, bytes: number): ProductPageData {
  const items: Record<string, unknown>[] = [];
  const page = () => ({ ...real, products: { ...real.products, total: items.length, limit: items.length, total_pages: 1, items } });
  while (JSON.stringify({ code: 200, message: "ok", data: page() }).length < bytes) {
    const source = real.products.items[items.length % real.products.items.length]!;
    items.push({ ...source, product_code: `${String(source.product_code)}-${items.length}` });
  }
  return page();
}

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
  /** Served under this prefix, so each case has its own answer. */
  prefix: string;
  path: string;
  form: string;
  data: unknown;
  client: (c: PartnerClient) => Promise<unknown>;
}

function productCase(name: string, prefix: string, data: ProductPageData): Case {
  const count = data.products.items.length;
  return {
    name: `GetUserProduct, ${name} (${count} products, ${kb(data)} KB)`,
    prefix,
    path: "partner/GetUserProduct/",
    form: new URLSearchParams({ page: "1", limit: String(count), apikey: KEY }).toString(),
    data,
    client: (c) => c.listProducts({ page: 1, limit: count }),
  };
}

function kb(data: unknown): string {
  return (JSON.stringify({ code: 200, message: "ok", data }).length / 1024).toFixed(1);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const real = await sandboxProductPage();
  const cases: Case[] = [
    { name: `GetRecord (2 records, ${kb(getRecord)} KB)`, prefix: "/record/", path: "partner/GetRecord/", form: new URLSearchParams({ order_no: getRecord.order_no, apikey: KEY }).toString(), data: getRecord, client: (c) => c.getRecord({ orderNo: getRecord.order_no }) },
    productCase("synthetic", "/synthetic/", productPage as unknown as ProductPageData),
    productCase("the sandbox's list", "/sandbox/", real),
    productCase("about 57 KB", "/large/", largeProductPage(real, LARGE_LIST_BYTES)),
  ];
  const worker = new Worker(SERVER, { eval: true, workerData: Object.fromEntries(cases.map((c) => [`${c.prefix}${c.path}`, c.data])) });
  const [port] = (await once(worker, "message")) as [number];
  const origin = `http://127.0.0.1:${port}`;
  const warnings: string[] = [];
  const clients = new Map(cases.map((c) => [c, new PartnerClient({ baseUrl: `${origin}${c.prefix}`, apiKey: KEY, retry: false, logger: { warn: (m) => warnings.push(m) } })]));
  // The payloads must be read in full, or the figures measure a client skipping what it cannot read.
  for (const c of cases) {
    const answer = (await c.client(clients.get(c)!)) as { dnsRecords?: unknown[]; items?: unknown[] };
    const expected = (c.data as { products?: { items: unknown[] } }).products?.items.length ?? 2;
    const read = answer.items?.length ?? answer.dnsRecords?.length;
    if (read !== expected || warnings.length > 0) {
      throw new Error(`the client did not read ${c.name} in full: ${read} of ${expected}, warnings: ${warnings.join("; ")}`);
    }
  }
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const headers = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };

  console.log(`client overhead vs raw undici — ${CALLS} calls per variant, interleaved, Node ${process.versions.node}, ${new Date().toISOString()}`);
  for (const c of cases) {
    const client = clients.get(c)!;
    const raw = async () => {
      const res = await agent.request({ origin, path: `${c.prefix}${c.path}`, method: "POST", headers, body: c.form });
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
  readingAlone(cases.filter((c) => c.path.includes("GetUserProduct")));
  for (const client of clients.values()) await client.close();
  await agent.close();
  worker.postMessage("stop");
  await once(worker, "exit");
}

/**
 * The product list's reading without HTTP: JSON.parse of the answer, and
 * JSON.parse plus the client's reader (envelope aside). Best of 20 batches,
 * the variants interleaved batch by batch.
 */
function readingAlone(cases: Case[]): void {
  console.log(`\nreading a product list without HTTP (best of 20 batches, interleaved)`);
  for (const c of cases) {
    const text = JSON.stringify({ code: 200, message: "ok", data: c.data });
    const variants = {
      parse: () => JSON.parse(text) as unknown,
      read: () => RESPONSE_READERS.GetUserProduct((JSON.parse(text) as { data: unknown }).data, new ReadContext("data")),
    };
    const best = { parse: Infinity, read: Infinity };
    const perBatch = Math.max(20, Math.round(2_000_000 / text.length));
    for (let batch = 0; batch < 23; batch++) {
      for (const [name, run] of Object.entries(variants) as [keyof typeof variants, () => unknown][]) {
        const start = performance.now();
        for (let i = 0; i < perBatch; i++) run();
        // The first batches warm the JIT.
        if (batch >= 3) best[name] = Math.min(best[name], ((performance.now() - start) / perBatch) * 1000);
      }
    }
    console.log(`  ${c.name.padEnd(52)} JSON.parse ${best.parse.toFixed(0).padStart(5)} µs   + reader ${best.read.toFixed(0).padStart(5)} µs   (${(best.read / best.parse).toFixed(2)}× JSON.parse)`);
  }
}

void main();
