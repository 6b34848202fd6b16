// Python programs served by the provider plugin: the Python SDK generated
// from sdk/schema.json, installed into a virtualenv beside the Pulumi Python
// SDK (scripts/python/), run by the Python language host with the `pulumi`
// commands a user types. The same scenario as yaml-program.test.ts and
// go-program.test.ts with the program docs/languages.md prints, then two
// accounts through explicit providers, and `pulumi import` whose generated
// Python code becomes the program.
import * as fs from "node:fs";
import * as path from "node:path";
import { PartnerClient } from "pulumi-certreseller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../scripts/engine/index.js";
import { opensslVerify } from "../../support/openssl.js";
import { configureStack } from "../harness/plugin.js";
import { pythonRuntime, pythonWorld, type PythonWorld } from "../harness/python.js";
import { startTestSandbox, type TestSandbox } from "../harness/sandbox.js";
import { backendText } from "../harness/stack.js";

const python = pythonRuntime();
const log = (line: string) => console.error(`[python-program] ${line}`);
const FIXTURES = path.join(repoRoot, "tests", "e2e", "fixtures");
const appIdOf = (key: string) => key.slice(0, key.indexOf(":"));

/** docs/languages.md's Python program, for this test's sandbox and domain, exporting also what the test checks. */
function docsProgram(managementUrl: string, domain: string): string {
  const doc = fs.readFileSync(path.join(repoRoot, "docs", "languages.md"), "utf8");
  const program = /\nPython \([^\n]*\):\n\n```python\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!program) throw new Error("docs/languages.md has no Python program under 'Python (...):'");
  return (
    program.replaceAll("http://127.0.0.1:8080/management", managementUrl).replaceAll("example.com", domain) +
    ['pulumi.export("orderNo", order.order_no)', 'pulumi.export("accountId", order.account_id)', 'pulumi.export("privateKeyPem", certificate.private_key_pem)', ""].join("\n")
  );
}

const pulumiFailure = (promise: Promise<unknown>) =>
  promise.then(
    () => "",
    (error: Error) => error.message,
  );

describe.skipIf(!python)("a Python program (generated Python SDK) through the provider plugin", () => {
  const DOMAIN = "python.e2e.example.com";
  let sandbox: TestSandbox;
  let world: PythonWorld;
  let dir: string;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ validation: "published" });
    world = await pythonWorld(sandbox, python!, log);
    dir = world.project("certreseller-python", docsProgram(sandbox.managementUrl, DOMAIN));
    await world.pulumi(["stack", "init", "dev"], { cwd: dir });
    await configureStack(world, dir);
  });

  afterAll(async () => {
    await world?.pulumi(["destroy", "--yes"], { cwd: dir }).catch(() => undefined);
    await sandbox?.stop();
    world?.dispose();
  });

  it("up buys, validates from the published record and issues; preview shows no change; destroy refunds", async () => {
    const up = await world.pulumi(["up", "--yes"], { cwd: dir });
    expect(up).toMatch(/certreseller:index:Certificate/);
    expect(up).toMatch(/certreseller:testing:SandboxDnsRecord/);
    expect(up).not.toMatch(/pulumi-resource-certreseller from \$PATH/); // the installed plugin, not an ambient one
    const outputs = JSON.parse(await world.pulumi(["stack", "output", "--json", "--show-secrets"], { cwd: dir })) as Record<string, string>;
    expect((await sandbox.management.orders()).map((o) => o.orderNo)).toEqual([outputs.orderNo]);
    expect(outputs.accountId).toBe(appIdOf(sandbox.apiKey));
    expect(opensslVerify(outputs.fullChainPem!, await sandbox.management.rootPem())).toMatch(/OK/);
    expect(outputs.privateKeyPem).toMatch(/BEGIN PRIVATE KEY/);
    // The record the Validation gave was published (the sandbox issued only because it was).
    const published = await sandbox.management.call<{ fqdn: string; type: string }[]>("GET", "/dns-records");
    expect(published).toEqual([expect.objectContaining({ fqdn: expect.stringContaining(DOMAIN), type: "TXT" })]);

    // Secrets: the private key encrypted in state, the API key never there, nor in the stack's config file.
    const state = backendText(world);
    expect(state).not.toContain(outputs.privateKeyPem!.split("\n")[1]);
    expect(state).not.toContain(sandbox.apiKey.split(":")[1]);
    const stackConfig = fs.readFileSync(path.join(dir, "Pulumi.dev.yaml"), "utf8");
    expect(stackConfig).toMatch(/certreseller:apiKey:\s+secure:/);
    expect(stackConfig).not.toContain(sandbox.apiKey.split(":")[1]);
    const plain = JSON.parse(await world.pulumi(["stack", "output", "--json"], { cwd: dir })) as Record<string, string>;
    expect(plain.privateKeyPem).toBe("[secret]");

    await world.pulumi(["preview", "--expect-no-changes"], { cwd: dir });

    const destroy = await world.pulumi(["destroy", "--yes"], { cwd: dir });
    expect(destroy).toMatch(/refunded 100\.00/);
    expect((await sandbox.management.order(outputs.orderNo!)).refund).toMatchObject({ mode: "direct" });
    expect((await sandbox.management.orders()).length).toBe(1);
    expect(await sandbox.management.call("GET", "/dns-records")).toEqual([]);
    const calls = (await sandbox.management.requests()).map((r) => r.operation);
    expect(calls.filter((op) => op === "CreateOrder")).toHaveLength(1);
    expect(calls.filter((op) => op === "CancelOrder")).toHaveLength(1);
  });
});

describe.skipIf(!python)("Python: two accounts in one stack through explicit certreseller.Provider resources", () => {
  let sandbox: TestSandbox;
  let world: PythonWorld;
  let dir: string;
  let keyA: string;
  let keyB: string;

  const setUp = async (cwd: string, stack: string) => {
    await world.pulumi(["stack", "init", stack], { cwd });
    await world.pulumi(["config", "set", "baseUrl", sandbox.url], { cwd });
    await world.pulumi(["config", "set", "journalDir", world.journalDir], { cwd });
    await world.pulumi(["config", "set", "--secret", "keyA"], { cwd, input: keyA });
    await world.pulumi(["config", "set", "--secret", "keyB"], { cwd, input: keyB });
  };

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    keyA = sandbox.apiKey;
    keyB = (await sandbox.management.createAccount({ username: "python-business-unit-b", balance: 1000 })).apiKey;
    world = await pythonWorld(sandbox, python!, log);
    dir = world.copyProject(path.join(FIXTURES, "python-two-accounts"));
    await setUp(dir, "dev");
  });

  afterAll(async () => {
    await world?.pulumi(["destroy", "--yes"], { cwd: dir }).catch(() => undefined);
    await sandbox?.stop();
    world?.dispose();
  });

  it("buys with each account, destroys each order with its own key; neither key is in state", async () => {
    const preview = await world.pulumi(["preview"], { cwd: dir });
    expect(preview).toContain(`provider accountA buys with account ${appIdOf(keyA)} (its apiKey)`);
    expect(preview).toContain(`provider accountB buys with account ${appIdOf(keyB)} (its apiKey)`);
    await world.pulumi(["up", "--yes"], { cwd: dir });
    const out = JSON.parse(await world.pulumi(["stack", "output", "--json"], { cwd: dir })) as Record<string, string>;
    expect(out.accountOfA).toBe(appIdOf(keyA));
    expect(out.accountOfB).toBe(appIdOf(keyB));
    const creates = (await sandbox.management.requests()).filter((r) => r.operation === "CreateOrder");
    expect(creates.map((r) => r.appId).sort()).toEqual([appIdOf(keyA), appIdOf(keyB)].sort());
    const state = backendText(world);
    for (const key of [keyA, keyB]) expect(state).not.toContain(key.split(":")[1]);
    await world.pulumi(["preview", "--expect-no-changes"], { cwd: dir });

    await world.pulumi(["destroy", "--yes"], { cwd: dir });
    const cancels = (await sandbox.management.requests()).filter((r) => r.operation === "CancelOrder" && r.code === 200);
    expect(new Map(cancels.map((r) => [r.orderNo, r.appId]))).toEqual(
      new Map([
        [out.orderA, appIdOf(keyA)],
        [out.orderB, appIdOf(keyB)],
      ]),
    );
    expect((await sandbox.management.orders()).length).toBe(2);
  });

  it("an explicit provider without apiKey fails preview and up naming apiKey; nothing is bought with the environment's key", async () => {
    const noKey = world.copyProject(path.join(FIXTURES, "python-two-accounts"), "without-key-b");
    const file = path.join(noKey, "__main__.py");
    const program = fs.readFileSync(file, "utf8");
    const withoutKey = program.replace('api_key=config.require_secret("keyB"), ', "");
    expect(withoutKey).not.toBe(program);
    fs.writeFileSync(file, withoutKey);
    await setUp(noKey, "without-key");
    await sandbox.management.clearRequests();
    const env = { CERTRESELLER_API_KEY: keyA };
    for (const command of [["preview"], ["up", "--yes"]]) {
      const message = await pulumiFailure(world.pulumi(command, { cwd: noKey, env }));
      expect(message).toMatch(/apiKey/);
      expect(message).toMatch(/its own key/);
      expect(message).not.toContain(keyA.split(":")[1]);
    }
    expect((await sandbox.management.requests()).filter((r) => r.operation === "CreateOrder")).toHaveLength(0);
    await world.pulumi(["stack", "rm", "--yes", "--force"], { cwd: noKey });
  });
});

describe.skipIf(!python)("Python: pulumi import of an Order and its Certificate", () => {
  const DOMAIN = "import.python.e2e.example.com";
  let sandbox: TestSandbox;
  let world: PythonWorld;
  let dir: string;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    world = await pythonWorld(sandbox, python!, log);
    dir = world.copyProject(path.join(FIXTURES, "python-empty"));
    await world.pulumi(["stack", "init", "dev"], { cwd: dir });
    await configureStack(world, dir);
  });

  afterAll(async () => {
    await world?.pulumi(["destroy", "--yes"], { cwd: dir }).catch(() => undefined);
    await sandbox?.stop();
    world?.dispose();
  });

  it("imports by order number and order number/certificate id; the generated Python code, added to the program, previews with no changes", async () => {
    // Bought elsewhere: another tool, the reseller's web console.
    const client = new PartnerClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
    const { orderNo } = await client.createOrder({ productCode: "sandbox-dv-multi", domain: DOMAIN, sanDomains: [`www.${DOMAIN}`], months: 12, verificationMethod: "dns" });
    await client.applySign({ orderNo });
    const { certId } = await client.downloadCertificate({ orderNo });
    await client.close();
    await sandbox.management.clearRequests();

    fs.writeFileSync(
      path.join(dir, "import.json"),
      JSON.stringify({
        resources: [
          { type: "certreseller:index:Order", name: "site", id: orderNo },
          { type: "certreseller:index:Certificate", name: "site", id: `${orderNo}/${certId}` },
        ],
      }),
    );
    const imported = await world.pulumi(["import", "--file", "import.json", "--yes", "--protect=false", "--out", "imported.py"], { cwd: dir });
    expect(imported).toMatch(/imported/i);
    const code = fs.readFileSync(path.join(dir, "imported.py"), "utf8");
    log(`pulumi import wrote:\n${code}`);
    // Python code saying what the service told: product, names, method, and that it holds an existing order.
    expect(code).toMatch(/certreseller\.Order\("site"/);
    expect(code).toContain('product_code="sandbox-dv-multi"');
    expect(code).toContain(`domain="${DOMAIN}"`);
    expect(code).toContain(`www.${DOMAIN}`);
    expect(code).toContain(`adopt_order_no="${orderNo}"`);
    expect(code).toMatch(/certreseller\.Certificate\("site"/);
    expect(code).toContain(`cert_id="${certId}"`);

    fs.appendFileSync(path.join(dir, "__main__.py"), `\n${code}`);
    await world.pulumi(["preview", "--expect-no-changes"], { cwd: dir });
    const up = await world.pulumi(["up", "--yes", "--expect-no-changes"], { cwd: dir });
    expect(up).not.toMatch(/bought/);
    const calls = (await sandbox.management.requests()).map((r) => r.operation);
    expect(calls).not.toContain("CreateOrder");
    expect(calls).not.toContain("ApplySign");
    expect(calls).not.toContain("CancelOrder");
    expect((await sandbox.management.orders()).map((o) => o.orderNo)).toEqual([orderNo]);

    // Imported means managed: destroy cancels and refunds it.
    const destroy = await world.pulumi(["destroy", "--yes"], { cwd: dir });
    expect(destroy).toMatch(/cancelled; refunded/);
  });
});
