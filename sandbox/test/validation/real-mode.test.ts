// The validation authority and the CA inside the running sandbox: in
// `validation: "real"` an order issues only once its records are really
// published (UDP DNS, HTTP), and the certificate downloaded chains to the
// sandbox's root under `openssl verify`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/index.js";
import { openssl, scratchDir } from "../../../tests/support/openssl.js";
import { startDnsServer } from "./support/dns-server.js";
import { startSite, type TestSite } from "./support/http-server.js";

/** An element of dns_records or http_records (spec 2.5). */
interface WireRecord {
  domain: string;
  type: string;
  record_type: "TXT" | "CNAME" | "FILE";
  label: string;
  value?: string;
  path?: string;
  content?: string;
}

let dns: Awaited<ReturnType<typeof startDnsServer>>;
let site: TestSite;
let sandbox: RunningSandbox;

beforeAll(async () => {
  dns = await startDnsServer();
  site = await startSite();
  sandbox = await startSandbox({
    validation: "real",
    statusCooldownSeconds: 0,
    realValidation: {
      resolver: dns.address,
      hostOverrides: { "real-file.example": site.address, "www.real-file.example": site.address },
      timeoutMs: 2_000,
    },
  });
});
afterAll(async () => {
  await sandbox?.stop();
  await site?.stop();
  await dns?.stop();
});

async function partner<T>(operation: string, body: Record<string, unknown>): Promise<T> {
  const response = await fetch(`${sandbox.url}/partner/${operation}/`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": sandbox.accounts[0]!.apiKey },
    body: JSON.stringify(body),
  });
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  if (envelope.code !== 200) throw new Error(`${operation} answered ${envelope.code}: ${envelope.message}`);
  return envelope.data;
}

async function orderAndSubmit(domain: string, method: "dns" | "cname" | "file"): Promise<{ orderNo: string; records: WireRecord[] }> {
  const order = await partner<{ order_no: string }>("CreateOrder", {
    product_code: "sandbox-dv-multi",
    domain,
    san_domains: [`www.${domain}`],
    verification_method: method,
    key_spec: "p-256",
    signature_algorithm: "ecc",
  });
  const submitted = await partner<{ dns_records: WireRecord[]; http_records: WireRecord[] }>("ApplySign", { order_no: order.order_no });
  const records = method === "file" ? submitted.http_records : submitted.dns_records;
  expect(records).toHaveLength(2);
  return { orderNo: order.order_no, records };
}

const status = (orderNo: string) =>
  partner<{ cert_status: number; domain_statuses: { domain: string; verified: boolean }[]; ca_status_text: string | null }>("GetCertificateStatus", { order_no: orderNo });

async function expectChainVerifies(orderNo: string, names: string[]): Promise<void> {
  const download = await partner<{ certificate: { certificate_leaf: string; intermediate_certificate: string } }>("DownloadCertificate", { order_no: orderNo });
  const files = await scratchDir();
  try {
    const root = await files.write("root.pem", sandbox.caCertificatePem);
    const intermediate = await files.write("intermediate.pem", download.certificate.intermediate_certificate);
    const leaf = await files.write("leaf.pem", download.certificate.certificate_leaf);
    expect((await openssl(["verify", "-CAfile", root, "-untrusted", intermediate, leaf])).stdout).toBe(`${leaf}: OK\n`);
    const text = (await openssl(["x509", "-noout", "-ext", "subjectAltName"], download.certificate.certificate_leaf)).stdout;
    expect(text).toContain(names.map((n) => `DNS:${n}`).join(", "));
  } finally {
    await files.dispose();
  }
}

describe("validation real inside the sandbox", () => {
  it("issues a DNS-validated order only after every TXT record is published at the resolver", async () => {
    const { orderNo, records } = await orderAndSubmit("real-dns.example", "dns");
    expect((await status(orderNo)).cert_status).toBe(2);

    // Only one of the two names published: still not issued.
    const [first, second] = records as [WireRecord, WireRecord];
    dns.set(`${first.label}.${first.domain}`, "TXT", [first.value!]);
    const partial = await status(orderNo);
    expect(partial.cert_status).toBe(2);
    expect(partial.ca_status_text).toContain(second.domain);

    dns.set(`${second.label}.${second.domain}`, "TXT", [second.value!]);
    expect((await status(orderNo)).cert_status).toBe(1);
    await expectChainVerifies(orderNo, ["real-dns.example", "www.real-dns.example"]);
  });

  it("issues a file-validated order once the files are served over HTTP", async () => {
    const { orderNo, records } = await orderAndSubmit("real-file.example", "file");
    expect((await status(orderNo)).cert_status).toBe(2);
    for (const rec of records) site.routes.set(new URL(rec.path!).pathname, rec.content!);
    expect((await status(orderNo)).cert_status).toBe(1);
    expect(site.hosts).toEqual(expect.arrayContaining(["real-file.example", "www.real-file.example"]));
    await expectChainVerifies(orderNo, ["real-file.example", "www.real-file.example"]);
  });

  it("issues a CNAME-validated order once the CNAMEs point at the right targets", async () => {
    const { orderNo, records } = await orderAndSubmit("real-cname.example", "cname");
    for (const rec of records) dns.set(`${rec.label}.${rec.domain}`, "CNAME", ["wrong.target.example"]);
    expect((await status(orderNo)).cert_status).toBe(2);
    for (const rec of records) dns.set(`${rec.label}.${rec.domain}`, "CNAME", [rec.value!]);
    expect((await status(orderNo)).cert_status).toBe(1);
  });
});
