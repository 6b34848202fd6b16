/**
 * Loads the pack the way the Pulumi CLI does — `run-policy-pack` from
 * @pulumi/pulumi, started in the pack directory, which compiles `index.ts`
 * with its bundled ts-node — and drives it over the analyzer gRPC protocol.
 * This proves `pulumi preview --policy-pack policy` can load it; the engine
 * run itself belongs to the e2e suite.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const requireFromPulumi = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const grpc = requireFromPulumi("@grpc/grpc-js");
const analyzerPb = requireFromPulumi("./proto/analyzer_pb");
const analyzerGrpc = requireFromPulumi("./proto/analyzer_grpc_pb");
const { Struct } = requireFromPulumi("google-protobuf/google/protobuf/struct_pb");
const { Empty } = requireFromPulumi("google-protobuf/google/protobuf/empty_pb");

const ORDER = "pulumi-nodejs:dynamic/certreseller:Order";
const packDir = path.resolve(__dirname, "..");

let child: ChildProcess;
let client: any;

function call<T>(method: string, request: unknown): Promise<T> {
  return new Promise((resolve, reject) =>
    client[method](request, (err: Error | null, res: T) => (err ? reject(err) : resolve(res))),
  );
}

function resourceOptions(protect = false) {
  return new analyzerPb.AnalyzerResourceOptions().setProtect(protect);
}

function analyzeOrder(name: string, props: Record<string, unknown>, protect = false, type = ORDER) {
  const req = new analyzerPb.AnalyzeRequest()
    .setType(type)
    .setName(name)
    .setUrn(`urn:pulumi:dev::proj::${type}::${name}`)
    .setProperties(Struct.fromJavaScript(props))
    .setOptions(resourceOptions(protect));
  return call<any>("analyze", req).then((res) =>
    res.getDiagnosticsList().map((d: any) => ({ policy: d.getPolicyname(), message: d.getMessage() })),
  );
}

beforeAll(async () => {
  // Node from PATH, as the CLI's analyzer launcher does; npm/npx put Node 24 first.
  child = spawn(process.execPath, [requireFromPulumi.resolve("./cmd/run-policy-pack"), "127.0.0.1:1", "."], {
    cwd: packDir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once("data", (d) => resolve(String(d).trim()));
    child.once("exit", (code) => reject(new Error(`policy pack exited with ${code}: ${stderr}`)));
  });
  expect(port).toMatch(/^\d+$/);
  client = new analyzerGrpc.AnalyzerClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}, 120_000);

afterAll(() => {
  client?.close();
  child?.kill();
});

describe("certreseller-guardrails loaded by run-policy-pack", () => {
  it("announces the pack and every policy with its config schema", async () => {
    const info = await call<any>("getAnalyzerInfo", new Empty());
    expect(info.getName()).toBe("certreseller-guardrails");
    const policies = info.getPoliciesList().map((p: any) => p.getName());
    expect(policies).toEqual([
      "certreseller-allowed-products",
      "certreseller-max-term",
      "certreseller-max-order-price",
      "certreseller-max-stack-price",
      "certreseller-allowed-validation-methods",
      "certreseller-domain-allow-list",
      "certreseller-wildcards",
      "certreseller-production-orders-protected",
    ]);
  });

  it("passes a conforming Order and ignores other resource types", async () => {
    const ok = { productCode: "sandbox-dv-single", domain: "example.com", verificationMethod: "dns", quotedPrice: "100.00" };
    expect(await analyzeOrder("ok", ok)).toEqual([]);
    // No method set: the product's default applies, which nothing at preview can name, so it is not judged.
    const { verificationMethod: _unset, ...noMethod } = ok;
    expect(await analyzeOrder("no-method", noMethod)).toEqual([]);
    const other = new analyzerPb.AnalyzeRequest()
      .setType("cloudflare:index/dnsRecord:DnsRecord")
      .setName("r")
      .setUrn("urn:pulumi:dev::proj::cloudflare:index/dnsRecord:DnsRecord::r")
      .setProperties(Struct.fromJavaScript({ months: 99, verificationMethod: "email-admin" }))
      .setOptions(resourceOptions());
    expect((await call<any>("analyze", other)).getDiagnosticsList()).toEqual([]);
  });

  it("reports defaults-based violations with the policy that found them", async () => {
    const diags = await analyzeOrder("bad", {
      productCode: "sandbox-dv-single",
      domain: "example.com",
      months: 24,
      verificationMethod: "email-admin",
      quotedPrice: "1500.00",
    });
    expect(diags.map((d: any) => d.policy).sort()).toEqual([
      "certreseller-allowed-validation-methods",
      "certreseller-max-order-price",
      "certreseller-max-term",
    ]);
  });

  it("checks an Order served by the provider plugin (a YAML, Go, Python or C# program) alike", async () => {
    const diags = await analyzeOrder("yaml", { productCode: "sandbox-dv-single", domain: "example.com", months: 24, quotedPrice: "100.00" }, false, "certreseller:index:Order");
    expect(diags.map((d: any) => d.policy)).toEqual(["certreseller-max-term"]);
  });

  it("prices an Order whose adoptOrderNo is unknown at preview as a purchase (it buys if the value resolves to nothing)", async () => {
    const unknownAdopt = {
      productCode: "sandbox-dv-single",
      domain: "example.com",
      verificationMethod: "dns",
      adoptOrderNo: "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
      quotedPrice: "1500.00",
    };
    expect(await analyzeOrder("maybe", unknownAdopt)).toEqual([
      { policy: "certreseller-max-order-price", message: expect.stringContaining("quotedPrice 1500.00 exceeds the per-order maximum of 1000.00") },
    ]);
    expect(await analyzeOrder("adopted", { ...unknownAdopt, adoptOrderNo: "CERT9" })).toEqual([]);
  });

  it("applies configuration from the CLI and warns about unprotected production Orders", async () => {
    const config = new analyzerPb.ConfigureAnalyzerRequest();
    const map = config.getPolicyconfigMap();
    const entry = (props: object, level = analyzerPb.EnforcementLevel.MANDATORY) =>
      new analyzerPb.PolicyConfig().setEnforcementlevel(level).setProperties(Struct.fromJavaScript(props));
    map.set("certreseller-wildcards", entry({ allowWildcards: false }));
    map.set("certreseller-domain-allow-list", entry({ allowedSuffixes: ["example.com"] }));
    map.set("certreseller-production-orders-protected", entry({ treatAsProduction: true }, analyzerPb.EnforcementLevel.ADVISORY));
    await call("configure", config);

    const wild = { productCode: "sandbox-dv-wildcard", domain: "*.example.net", verificationMethod: "dns", quotedPrice: "10" };
    const diags = await analyzeOrder("wild", wild);
    expect(diags.map((d: any) => d.policy).sort()).toEqual([
      "certreseller-domain-allow-list",
      "certreseller-production-orders-protected",
      "certreseller-wildcards",
    ]);
    const ok = { ...wild, domain: "www.example.com" };
    expect(await analyzeOrder("protected", ok, true)).toEqual([]);
  });

  it("caps the stack's total over several Orders", async () => {
    const resource = (name: string, quotedPrice: string) =>
      new analyzerPb.AnalyzerResource()
        .setType(ORDER)
        .setName(name)
        .setUrn(`urn:pulumi:dev::proj::${ORDER}::${name}`)
        .setProperties(Struct.fromJavaScript({ productCode: "p", domain: `${name}.example.com`, quotedPrice }))
        .setOptions(resourceOptions(true));
    const req = new analyzerPb.AnalyzeStackRequest().setResourcesList([resource("a", "3000.00"), resource("b", "2500.00")]);
    const res = await call<any>("analyzeStack", req);
    const diags = res.getDiagnosticsList().map((d: any) => [d.getPolicyname(), d.getMessage()]);
    expect(diags).toHaveLength(1);
    expect(diags[0][0]).toBe("certreseller-max-stack-price");
    expect(diags[0][1]).toContain("total 5500.00");
  });
});
