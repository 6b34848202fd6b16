// examples/cloudflare-dns (a ValidatedCertificate whose `publish` makes a
// `cloudflare.DnsRecord` per name) as a folder program through the engine,
// with the real Cloudflare provider plugin and the sandbox's Cloudflare API:
// up issues from the records it created, destroy deletes them and refunds.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { repoRoot } from "../../../scripts/engine/index.js";
import { opensslVerify } from "../../support/openssl.js";
import { startTestSandbox, type TestSandbox } from "../harness/sandbox.js";
import { cloudflareWorld, configureCloudflareStack, requestLines, type CloudflareWorld } from "./harness.js";
import { skipWithout } from "../../support/ci.js";

const EXAMPLE = path.join(repoRoot, "examples", "cloudflare-dns");
const ZONE = "example.net";
const DOMAINS = [ZONE, `www.${ZONE}`];

describe.skipIf(skipWithout(inject("cloudflarePlugin") ? undefined : "no Cloudflare provider plugin (see the e2e setup's [cloudflare] lines)"))("examples/cloudflare-dns with the real Cloudflare provider plugin", () => {
  let sandbox: TestSandbox;
  let world: CloudflareWorld;
  let dir: string;
  const pulumi = (args: string[]) => world.pulumi(args, dir);

  beforeAll(async () => {
    sandbox = await startTestSandbox({ validation: "published" });
    world = await cloudflareWorld(sandbox, ZONE);
    const files = ["Pulumi.yaml", "tsconfig.json", "index.ts", "program.ts"];
    dir = world.programDir(Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(EXAMPLE, f), "utf8")])));
    await pulumi(["stack", "init", "dev"]);
    await configureCloudflareStack(world, dir, { "cloudflare-dns:zoneId": world.zone.id, "cloudflare-dns:domains": JSON.stringify(DOMAINS) });
  });

  afterAll(async () => {
    if (world) console.log(`[cloudflare] the sandbox's Cloudflare requests:\n${requestLines(await world.cloudflareRequests()).join("\n")}`);
    await world?.pulumi(["destroy", "--yes"], dir).catch(() => undefined);
    await sandbox?.stop();
    world?.dispose();
  });

  it("up creates a record per name through the Cloudflare API and issues; destroy deletes them and refunds", async () => {
    await pulumi(["up", "--yes"]);
    const outputs = JSON.parse(await pulumi(["stack", "output", "--json", "--show-secrets"])) as { orderNo: string; recordNames: string[]; fullChainPem: string };
    const zone = (await sandbox.management.call<Array<{ id: string; records: Array<{ name: string; type: string }> }>>("GET", "/cloudflare/zones")).find((z) => z.id === world.zone.id)!;
    expect(zone.records.map((r) => r.name).sort()).toEqual([...outputs.recordNames].sort());
    expect(zone.records).toHaveLength(DOMAINS.length);
    expect(opensslVerify(outputs.fullChainPem, await sandbox.management.rootPem())).toMatch(/OK/);
    expect((await sandbox.management.orders()).map((o) => o.orderNo)).toEqual([outputs.orderNo]);

    await pulumi(["destroy", "--yes"]);
    const calls = await world.cloudflareRequests();
    expect(calls.filter((r) => r.method === "POST").map((r) => r.status)).toEqual(DOMAINS.map(() => 200));
    expect(calls.filter((r) => r.method === "DELETE").map((r) => r.status)).toEqual(DOMAINS.map(() => 200));
    expect(await sandbox.management.call("GET", "/dns-records")).toEqual([]);
    expect((await sandbox.management.order(outputs.orderNo)).refund).toMatchObject({ mode: "direct" });
    const ops = (await sandbox.management.requests()).map((r) => r.operation);
    expect(ops.filter((op) => op === "CreateOrder")).toHaveLength(1);
    expect(ops.filter((op) => op === "CancelOrder")).toHaveLength(1);
  });
});
