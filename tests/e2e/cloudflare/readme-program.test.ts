// The README's first program, as the README prints it, through the real
// engine with the real Pulumi Cloudflare provider plugin (v6.17.0): a folder
// program whose index.ts is the README's block, run by the Node language
// host with `pulumi` commands. Only configuration differs from what a user
// types: the zone id, the Cloudflare token and base URL (the sandbox's
// stand-in for Cloudflare's API), the Partner API's key and base URL. The
// sandbox validates from the records the Cloudflare API holds.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { repoRoot } from "../../../scripts/engine/index.js";
import { opensslVerify } from "../../support/openssl.js";
import { startTestSandbox, type TestSandbox } from "../harness/sandbox.js";
import { backendText } from "../harness/stack.js";
import { cloudflareWorld, configureCloudflareStack, requestLines, type CloudflareWorld } from "./harness.js";
import { skipWithout } from "../../support/ci.js";

/** The first ```ts block after "## A first program", verbatim. */
export function readmeFirstProgram(): string {
  const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const program = /^## A first program\n[\s\S]*?```ts\n([\s\S]*?)```/m.exec(readme)?.[1];
  if (!program) throw new Error("README.md has no ```ts block after '## A first program'");
  return program;
}

const PROGRAM = readmeFirstProgram();
/** The names the program certifies, from its own list (`const domains = [...]`). */
const DOMAINS = JSON.parse(/const domains = (\[[^\]]*\]);/.exec(PROGRAM)?.[1] ?? "null") as string[];
const ZONE = DOMAINS[0]!;
const PROJECT = "readme-first-program";
const PULUMI_YAML = `name: ${PROJECT}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`;
const TSCONFIG = JSON.stringify({ compilerOptions: { target: "ES2022", module: "nodenext", moduleResolution: "nodenext", strict: true, esModuleInterop: true, skipLibCheck: true } });

describe.skipIf(skipWithout(inject("cloudflarePlugin") ? undefined : "no Cloudflare provider plugin (see the e2e setup's [cloudflare] lines)"))("the README's first program with the real Cloudflare provider plugin", () => {
  let sandbox: TestSandbox;
  let world: CloudflareWorld;
  let dir: string;
  const pulumi = (args: string[], input?: string) => world.pulumi(args, dir, input);
  /** What the terminal shows: stdout and stderr. */
  const shown = (args: string[]) => world.pulumi(args, dir, undefined, { withStderr: true });
  const operations = async (name: string) => (await sandbox.management.requests()).filter((r) => r.operation === name).length;
  const cloudflareCalls = async (method: string) => (await world.cloudflareRequests()).filter((r) => r.method === method);
  const stateResources = async () =>
    (JSON.parse(await pulumi(["stack", "export"])) as { deployment: { resources?: Array<{ type: string; urn: string; outputs?: Record<string, unknown> }> } }).deployment.resources ?? [];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ validation: "published" });
    world = await cloudflareWorld(sandbox, ZONE);
    dir = world.programDir({ "Pulumi.yaml": PULUMI_YAML, "tsconfig.json": TSCONFIG, "index.ts": PROGRAM });
    await pulumi(["stack", "init", "dev"]);
    await configureCloudflareStack(world, dir, { zoneId: world.zone.id });
  });

  afterAll(async () => {
    if (world) {
      console.log(`[cloudflare] the sandbox's Cloudflare requests:\n${requestLines(await world.cloudflareRequests()).join("\n")}`);
      await pulumi(["config", "set", "zoneId", world.zone.id]).catch(() => undefined);
      await world.pulumi(["config", "set", "--secret", "cloudflare:apiToken"], dir, world.zone.token).catch(() => undefined);
      await pulumi(["destroy", "--yes"]).catch(() => undefined);
    }
    await sandbox?.stop();
    world?.dispose();
  });

  it("the program is the README's, certifying more than one name", () => {
    expect(PROGRAM).toContain('import * as cloudflare from "@pulumi/cloudflare";');
    expect(PROGRAM).toContain("new cloudflare.DnsRecord(");
    expect(DOMAINS.length).toBeGreaterThan(1);
  });

  it("preview on a new stack shows one DnsRecord per name and the Order's price, and buys nothing", async () => {
    const preview = await shown(["preview", "--diff"]);
    const records = preview.match(/\+ cloudflare:index\/dnsRecord:DnsRecord/g) ?? [];
    expect(records).toHaveLength(DOMAINS.length);
    for (const d of DOMAINS) expect(preview).toContain(`dcv-${d}`);
    expect(preview).toMatch(new RegExp(`will buy sandbox-dv-multi \\(12 months\\) for ${DOMAINS.join(", ").replaceAll(".", "\\.")}: \\d+\\.\\d\\d`));
    expect(await operations("CreateOrder")).toBe(0);
    expect(await world.cloudflareRequests()).toEqual([]);
  });

  it("a wrong Cloudflare token fails the records, not the money: the Order is paid and in state, the next up after the fix buys nothing more and issues", async () => {
    await pulumi(["config", "set", "--secret", "cloudflare:apiToken"], "x".repeat(40));
    const failed = await pulumi(["up", "--yes"]).then(
      (out) => { throw new Error(`up with a wrong token succeeded:\n${out}`); },
      (error: Error) => error.message,
    );
    expect(failed).toMatch(/Invalid access token/);
    expect(failed).toMatch(/dcv-/);
    expect(await operations("CreateOrder")).toBe(1);
    const [order] = await sandbox.management.orders();
    let resources = await stateResources();
    expect(resources.find((r) => r.type.endsWith(":Order"))?.outputs?.orderNo).toBe(order?.orderNo);
    expect(resources.some((r) => r.type.endsWith(":Certificate"))).toBe(false);
    expect(resources.some((r) => r.type === "cloudflare:index/dnsRecord:DnsRecord")).toBe(false);
    expect((await cloudflareCalls("POST")).map((r) => r.status)).toEqual(DOMAINS.map(() => 401));

    await world.pulumi(["config", "set", "--secret", "cloudflare:apiToken"], dir, world.zone.token);
    const up = await pulumi(["up", "--yes"]);
    expect(up).toMatch(/created/);
    expect(await operations("CreateOrder")).toBe(1);
    resources = await stateResources();
    expect(resources.filter((r) => r.type === "cloudflare:index/dnsRecord:DnsRecord")).toHaveLength(DOMAINS.length);
    // One record per name through the Cloudflare API, published where the CA looks.
    const zone = (await sandbox.management.call<Array<{ id: string; records: Array<{ name: string; type: string }> }>>("GET", "/cloudflare/zones")).find((z) => z.id === world.zone.id)!;
    expect(zone.records.map((r) => r.type)).toEqual(DOMAINS.map(() => "TXT"));
    const published = await sandbox.management.call<Array<{ fqdn: string }>>("GET", "/dns-records");
    expect(published.map((r) => r.fqdn).sort()).toEqual(zone.records.map((r) => r.name).sort());
    expect((await cloudflareCalls("POST")).filter((r) => r.status === 200)).toHaveLength(DOMAINS.length);

    const fullChain = await pulumi(["stack", "output", "fullChainPem"]);
    expect(opensslVerify(fullChain, await sandbox.management.rootPem())).toMatch(/OK/);
    const state = backendText(world);
    expect(state).not.toContain(world.zone.token);
    expect(state).not.toContain(sandbox.apiKey.split(":")[1]);
  });

  it("a second preview shows no changes; refresh changes nothing", async () => {
    await pulumi(["preview", "--expect-no-changes"]);
    await pulumi(["refresh", "--yes", "--expect-no-changes"]);
    await pulumi(["preview", "--expect-no-changes"]);
    expect(await operations("CreateOrder")).toBe(1);
  });

  it("a zone the token cannot reach fails the records, not the money; back to the zone, nothing changes", async () => {
    await pulumi(["config", "set", "zoneId", "0".repeat(32)]);
    const failed = await pulumi(["up", "--yes"]).then(
      (out) => { throw new Error(`up with a wrong zone succeeded:\n${out}`); },
      (error: Error) => error.message,
    );
    expect(failed).toMatch(/Could not route to \/zones\/0{32}\/dns_records/);
    expect(await operations("CreateOrder")).toBe(1);
    expect(await operations("CancelOrder")).toBe(0);
    const resources = await stateResources();
    expect(resources.filter((r) => r.type.endsWith(":Order") || r.type.endsWith(":Certificate"))).toHaveLength(2);
    await pulumi(["config", "set", "zoneId", world.zone.id]);
    await pulumi(["preview", "--expect-no-changes"]);
  });

  it("destroy deletes the records through the Cloudflare API and refunds", async () => {
    const [order] = await sandbox.management.orders();
    const destroy = await pulumi(["destroy", "--yes"]);
    expect(destroy).toMatch(/deleted/);
    expect((await cloudflareCalls("DELETE")).map((r) => r.status)).toEqual(DOMAINS.map(() => 200));
    expect(await sandbox.management.call("GET", "/dns-records")).toEqual([]);
    expect((await sandbox.management.order(order!.orderNo)).refund).toMatchObject({ mode: "direct" });
    expect(await operations("CreateOrder")).toBe(1);
    expect(await operations("CancelOrder")).toBe(1);
  });
});
