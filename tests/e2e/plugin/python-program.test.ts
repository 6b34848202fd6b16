// Python programs served by the provider plugin, set up as docs/languages.md
// tells a user: the generated Python SDK's wheel and the Pulumi SDK installed
// with pip from PyPI into the project's `venv` (the docs' commands, as
// printed), the docs' `Pulumi.yaml` (`toolchain: pip`, `virtualenv: venv`),
// run by the Python language host with the `pulumi` commands a user types.
// The same scenario as yaml-program.test.ts and go-program.test.ts with the
// program docs/languages.md prints, then two accounts through explicit
// providers, and `pulumi import` whose generated Python code becomes the program.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../scripts/engine/index.js";
import { startPluginStack, type PluginStack } from "../harness/plugin.js";
import {
  appIdOf,
  boughtElsewhere,
  configureTwoAccounts,
  destroyRefunds,
  importedIsManaged,
  importOrderAndCertificate,
  upBuysWithEachAccount,
  upIssuesFromPublishedRecord,
  withoutKeyBuysNothing,
} from "../harness/plugin-scenarios.js";
import { pythonDocs, pythonRuntime, pythonWorld, type PythonWorld } from "../harness/python.js";

const python = pythonRuntime();
const log = (line: string) => console.error(`[python-program] ${line}`);
const FIXTURES = path.join(repoRoot, "tests", "e2e", "fixtures");
const withPython = (sandbox: Parameters<typeof pythonWorld>[0]) => pythonWorld(sandbox, python!, log);

/** docs/languages.md's Python program, for this test's sandbox and domain, exporting also what the test checks. */
function docsProgram(managementUrl: string, domain: string): string {
  return (
    pythonDocs().program.replaceAll("http://127.0.0.1:8080/management", managementUrl).replaceAll("example.com", domain) +
    ['pulumi.export("orderNo", order.order_no)', 'pulumi.export("accountId", order.account_id)', 'pulumi.export("privateKeyPem", certificate.private_key_pem)', ""].join("\n")
  );
}

describe.skipIf(!python)("a Python program (generated Python SDK) through the provider plugin", () => {
  const DOMAIN = "python.e2e.example.com";
  let stack: PluginStack<PythonWorld> | undefined;

  beforeAll(async () => {
    const program = (world: PythonWorld) => world.project("certreseller-python", docsProgram(world.sandbox.managementUrl, DOMAIN));
    stack = await startPluginStack({ program, world: withPython, sandbox: { validation: "published" } });
  });
  afterAll(() => stack?.dispose());

  it("up buys, validates from the published record and issues; preview shows no change; destroy refunds", async () => {
    const { sandbox, dir } = stack!;
    const { up, outputs } = await upIssuesFromPublishedRecord(stack!, DOMAIN);
    expect(up).toMatch(/certreseller:testing:SandboxDnsRecord/);
    expect(outputs.accountId).toBe(appIdOf(sandbox.apiKey));
    // Nor is the API key in the stack's config file.
    const stackConfig = fs.readFileSync(path.join(dir, "Pulumi.dev.yaml"), "utf8");
    expect(stackConfig).toMatch(/certreseller:apiKey:\s+secure:/);
    expect(stackConfig).not.toContain(sandbox.apiKey.split(":")[1]);

    await stack!.run(["preview", "--expect-no-changes"]);

    await destroyRefunds(stack!, outputs.orderNo!);
  });
});

describe.skipIf(!python)("Python: two accounts in one stack through explicit certreseller.Provider resources", () => {
  const PROGRAM = path.join(FIXTURES, "python-two-accounts");
  let stack: PluginStack<PythonWorld> | undefined;
  let keys: { keyA: string; keyB: string };

  beforeAll(async () => {
    stack = await startPluginStack({ program: (world: PythonWorld) => world.copyProject(PROGRAM), world: withPython, config: false });
    const { sandbox, world, dir } = stack;
    keys = { keyA: sandbox.apiKey, keyB: (await sandbox.management.createAccount({ username: "python-business-unit-b", balance: 1000 })).apiKey };
    await configureTwoAccounts(world, dir, keys);
  });
  afterAll(() => stack?.dispose());

  it("buys with each account, destroys each order with its own key; neither key is in state", async () => {
    const { keyA, keyB } = keys;
    const out = await upBuysWithEachAccount(stack!, keys);
    await stack!.run(["preview", "--expect-no-changes"]);

    await stack!.run(["destroy", "--yes"]);
    const cancels = (await stack!.sandbox.management.requests()).filter((r) => r.operation === "CancelOrder" && r.code === 200);
    expect(new Map(cancels.map((r) => [r.orderNo, r.appId]))).toEqual(
      new Map([
        [out.orderA, appIdOf(keyA)],
        [out.orderB, appIdOf(keyB)],
      ]),
    );
    expect((await stack!.sandbox.management.orders()).length).toBe(2);
  });

  it("an explicit provider without apiKey fails preview and up naming apiKey; nothing is bought with the environment's key", async () => {
    const noKey = stack!.world.copyProject(PROGRAM, "without-key-b");
    const file = path.join(noKey, "__main__.py");
    const program = fs.readFileSync(file, "utf8");
    const withoutKey = program.replace('api_key=config.require_secret("keyB"), ', "");
    expect(withoutKey).not.toBe(program);
    fs.writeFileSync(file, withoutKey);
    await withoutKeyBuysNothing(stack!.world, noKey, keys);
  });
});

describe.skipIf(!python)("Python: pulumi import of an Order and its Certificate", () => {
  const DOMAIN = "import.python.e2e.example.com";
  let stack: PluginStack<PythonWorld> | undefined;

  beforeAll(async () => {
    stack = await startPluginStack({ program: (world: PythonWorld) => world.copyProject(path.join(FIXTURES, "python-empty")), world: withPython });
  });
  afterAll(() => stack?.dispose());

  it("imports by order number and order number/certificate id; the generated Python code, added to the program, previews with no changes", async () => {
    const { orderNo, certId } = await boughtElsewhere(stack!.sandbox, DOMAIN);
    const code = await importOrderAndCertificate(stack!, { orderNo, certId }, "imported.py");
    log(`pulumi import wrote:\n${code}`);
    // Python code saying what the service told: product, names, method, and that it holds an existing order.
    expect(code).toMatch(/certreseller\.Order\("site"/);
    expect(code).toContain('product_code="sandbox-dv-multi"');
    expect(code).toContain(`domain="${DOMAIN}"`);
    expect(code).toContain(`www.${DOMAIN}`);
    expect(code).toContain(`adopt_order_no="${orderNo}"`);
    expect(code).toMatch(/certreseller\.Certificate\("site"/);
    expect(code).toContain(`cert_id="${certId}"`);

    fs.appendFileSync(path.join(stack!.dir, "__main__.py"), `\n${code}`);
    await importedIsManaged(stack!, orderNo);
  });
});
