// `npm run demo`: the quickstart with the real Pulumi engine against a local
// sandbox — up, a summary of the issued certificate and what it cost, then
// destroy (with the refund) and stop. `npm run demo` starts it through
// run.sh, which installs and builds first; the engine is provisioned here
// (built from Go modules the first time, with progress).
import * as path from "node:path";
import { startSandbox } from "certreseller-sandbox";
import { PartnerClient } from "pulumi-certreseller";
import { quickstart } from "../../examples/quickstart/program.js";
import { ManagementClient } from "../../tests/support/sandbox-management.js";
import { ensureEngine, inlineStack, isolatedEnvironment } from "../engine/index.js";
import { describeCertificate } from "./summary.js";

const DOMAIN = process.env.DEMO_DOMAIN ?? "demo.example.com";

async function main(): Promise<void> {
  const started = performance.now();
  const step = (text: string) => console.log(`\n== ${text}  (${((performance.now() - started) / 1000).toFixed(1)} s)`);

  step("engine");
  const engineStarted = performance.now();
  // The demo is a TypeScript program: no YAML language host to build.
  const engine = await ensureEngine({ yamlHost: false, log: (line) => console.log(`   ${line}`) });
  const engineSeconds = ((performance.now() - engineStarted) / 1000).toFixed(1);
  const how = { env: "from PULUMI_BINARY", path: "from PATH", cache: "cached", built: `built from Go modules in ${engineSeconds} s` }[engine.source];
  console.log(`   pulumi v${engine.version} (${how}) at ${engine.pulumiPath}`);

  step("sandbox");
  const sandbox = await startSandbox({ port: 0, host: "127.0.0.1" });
  const environment = isolatedEnvironment(engine);
  try {
    const management = new ManagementClient(sandbox.managementUrl);
    // Instant issuance and no status cooldown: the demo shows the flow, not the waiting.
    await management.setConfig({ validation: "auto", issueAfterSeconds: 0, statusCooldownSeconds: 0 });
    const account = sandbox.accounts[0]!;
    // The account as the Partner API reports it (GetUserData: money under `account`).
    const client = new PartnerClient({ baseUrl: sandbox.url, apiKey: account.apiKey });
    const funds = async () => (await client.getUserData()).account;
    const before = await funds();
    await client.close();
    console.log(`   Partner API at ${sandbox.url}; account ${account.username}, balance ${before.balance} (total available ${before.totalAvailable})`);

    const stack = await inlineStack({
      environment,
      projectName: "certreseller-demo",
      stackName: "demo",
      program: async () => quickstart({ domain: DOMAIN }),
      config: {
        "certreseller:apiKey": { value: account.apiKey, secret: true },
        "certreseller:baseUrl": { value: sandbox.url },
        "certreseller:journalDir": { value: path.join(environment.homeDir, "journal") },
        "sandbox:managementUrl": { value: sandbox.managementUrl },
      },
    });

    step(`pulumi up (quickstart for ${DOMAIN})`);
    const up = await stack.up({ onOutput: indent });
    const outputs = up.outputs;

    step("issued certificate");
    for (const line of describeCertificate(String(outputs.fullChainPem?.value ?? ""))) console.log(`   ${line}`);
    const after = (await management.account(account.username)).balance;
    console.log(`   order        ${outputs.orderNo?.value}`);
    console.log(`   charged      ${outputs.pricePaid?.value} (balance ${before.balance} → ${after})`);
    console.log(`   private key  ${outputs.privateKeyPem?.secret ? "secret output (encrypted in state)" : "NOT SECRET — this is a bug"}`);

    step("pulumi destroy");
    await stack.destroy({ onOutput: indent });
    // The refund as the service recorded it (CancelOrder's refund, the specification's section 2.6).
    const orderNo = String(outputs.orderNo?.value ?? "");
    const { refund } = (await management.order(orderNo)) as { refund?: { amount?: string; mode?: string; to?: string; refundOrderNo?: string | null } | null };
    if (!refund) throw new Error(`the sandbox recorded no refund for ${orderNo} after destroy`);
    console.log(`   refund       ${refund.amount} to ${refund.to} (${refund.mode}${refund.refundOrderNo ? `, ${refund.refundOrderNo}` : ""})`);
    console.log(`   balance after destroy: ${(await management.account(account.username)).balance}`);
    await stack.workspace.removeStack("demo");
  } finally {
    await sandbox.stop();
    environment.dispose();
  }
  step("done");
}

function indent(text: string): void {
  const lines = text.replace(/\n$/, "").split("\n");
  process.stdout.write(lines.map((line) => `   ${line}`).join("\n") + "\n");
}

main().catch((error: unknown) => {
  console.error("\ndemo failed:", error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
