// What a preview knows must fail at preview, before any money moves
// (issue 30): a record helper asked for a name the Order lacks, a sandbox
// record resource whose management URL does not answer, and a configuration
// error (no key, no base URL, a refused key, a base URL that is not the API,
// `https://` to a plain-HTTP port).
// An outage (the API unreachable) only warns. A plain preview names each
// purchase with its price. The sandbox's request log shows no CreateOrder.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { PulumiFn, Stack } from "@pulumi/pulumi/automation";
import * as certs from "pulumi-certreseller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHtml404 } from "./harness/html-404.js";
import type { TestSandbox } from "./harness/sandbox.js";
import { closeSandboxWorld, failureOf, openStack, recorder, startSandboxWorld, type E2eWorld } from "./harness/stack.js";
import { programWith, readmeYamlProgram, startPluginStack, type PluginStack, type PluginWorld } from "./harness/plugin.js";
import { inlineStack, repoRoot } from "../../scripts/engine/index.js";

const DOMAIN = "first.e2e.example.com";

/** Order → Validation → a sandbox DNS record for `asked`, as a newcomer writes it. */
function recordProgram(settings: { asked: string; managementUrl: string }): PulumiFn {
  return async () => {
    const order = new certs.Order("site", { productCode: "sandbox-dv-single", domain: DOMAIN, verificationMethod: "dns" });
    const validation = new certs.Validation("site", { order });
    const r = validation.dnsRecordFor(settings.asked);
    new certs.testing.SandboxDnsRecord("dcv", { managementUrl: settings.managementUrl, fqdn: r.fqdn, type: r.type, value: r.value });
    return { orderNo: order.orderNo };
  };
}

const multiProgram: PulumiFn = async () => {
  const order = new certs.Order("multi", { productCode: "sandbox-dv-multi", domain: DOMAIN, sanDomains: [`www.${DOMAIN}`], verificationMethod: "dns" });
  return { orderNo: order.orderNo, quotedPrice: order.quotedPrice };
};

async function createOrders(sandbox: TestSandbox): Promise<number> {
  return (await sandbox.management.operationCounts()).CreateOrder ?? 0;
}

describe("a record helper asked for a name the Order lacks fails the preview, naming both", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;

  beforeAll(async () => {
    ({ sandbox, world } = await startSandboxWorld({}, { directoryProgram: true }));
    stack = await openStack(world, "wrong-name", recordProgram({ asked: `www.${DOMAIN}`, managementUrl: sandbox.managementUrl }));
  });
  afterAll(() => closeSandboxWorld({ sandbox, world }));

  it("preview fails naming the asked name and the order's names; nothing is bought", async () => {
    const message = await failureOf(stack.preview());
    expect(message).toContain(`dnsRecordFor("www.${DOMAIN}"): "www.${DOMAIN}" is not one of the order's names (${DOMAIN})`);
    expect(await createOrders(sandbox)).toBe(0);
  });

  // The newcomer's `pulumi up` previews first. (The Automation API's `up` skips
  // the preview: the Order is registered before the Validation exists, so
  // nothing the Validation does can stop that purchase.)
  it("`pulumi up` of the same program in a folder stops at its preview: no CreateOrder", async () => {
    fs.mkdirSync(path.join(repoRoot, "tmp"), { recursive: true });
    const dir = fs.mkdtempSync(path.join(repoRoot, "tmp", "wrong-name-"));
    try {
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: wrong-name-dir\nruntime: nodejs\nmain: index.js\n");
      fs.writeFileSync(
        path.join(dir, "index.js"),
        [
          'const certs = require("pulumi-certreseller");',
          `const order = new certs.Order("site", { productCode: "sandbox-dv-single", domain: "${DOMAIN}", verificationMethod: "dns" });`,
          'const validation = new certs.Validation("site", { order });',
          `const r = validation.dnsRecordFor("www.${DOMAIN}");`,
          `new certs.testing.SandboxDnsRecord("dcv", { managementUrl: "${sandbox.managementUrl}", fqdn: r.fqdn, type: r.type, value: r.value });`,
          "",
        ].join("\n"),
      );
      const pulumi = (args: string[], input?: string) => run(world, dir, args, input);
      await pulumi(["stack", "init", "dev"]);
      await pulumi(["config", "set", "certreseller:baseUrl", sandbox.url]);
      await pulumi(["config", "set", "certreseller:journalDir", world.journalDir]);
      await pulumi(["config", "set", "--secret", "certreseller:apiKey"], sandbox.apiKey);
      const message = await failureOf(pulumi(["up", "--yes"]));
      expect(message).toContain(`"www.${DOMAIN}" is not one of the order's names (${DOMAIN})`);
      expect(message).not.toContain("bought order");
      expect(await createOrders(sandbox)).toBe(0);
      expect(await sandbox.management.orders()).toHaveLength(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** `pulumi <args> --non-interactive` in `cwd` with the world's engine; rejects with what it printed. */
function run(world: E2eWorld, cwd: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      world.environment.pulumiPath,
      [...args, "--non-interactive"],
      { cwd, env: { ...process.env, ...world.environment.env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => (error ? reject(new Error(`pulumi ${args.join(" ")} failed:\n${stdout}\n${stderr}`)) : resolve(stdout)),
    );
    if (input !== undefined) child.stdin!.end(input);
  });
}

describe("a sandbox record resource whose management URL does not answer fails the preview", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;

  beforeAll(async () => void ({ sandbox, world } = await startSandboxWorld()));
  afterAll(() => closeSandboxWorld({ sandbox, world }));

  it("a wrong port: preview fails naming managementUrl, the URL and the error; nothing is bought", async () => {
    const wrong = sandbox.managementUrl.replace(/:\d+\//, ":9/");
    const stack = await openStack(world, "wrong-port", recordProgram({ asked: DOMAIN, managementUrl: wrong }));
    const message = await failureOf(stack.preview());
    expect(message).toMatch(/property managementUrl value \{[\s\S]*?\} has a problem: managementUrl http:\/\/127\.0\.0\.1:9\/management does not answer: GET http:\/\/127\.0\.0\.1:9\/management\/health failed/);
    expect(await createOrders(sandbox)).toBe(0);
  });
});

describe("through the provider plugin (YAML): the README's program with a management URL nobody answers", () => {
  let sandbox: TestSandbox;
  let world: PluginWorld;
  let dir: string;
  let plugin: PluginStack | undefined;

  beforeAll(async () => {
    const program = readmeYamlProgram();
    const managementUrl = /managementUrl: (\S+)/.exec(program)?.[1];
    if (!managementUrl) throw new Error("the README's YAML program sets no managementUrl");
    const text = program.replaceAll(managementUrl, "http://127.0.0.1:9/management").replaceAll("example.com", DOMAIN);
    ({ sandbox, world, dir } = plugin = await startPluginStack({ program: (w) => programWith(w, { "Pulumi.yaml": text }) }));
  });
  afterAll(() => plugin?.close());

  it("`pulumi up` fails at its preview naming managementUrl; without a key the Order names certreseller:apiKey; no CreateOrder", async () => {
    const message = await failureOf(world.pulumi(["up", "--yes"], { cwd: dir }));
    expect(message).toMatch(/property managementUrl value \{[\s\S]*?\} has a problem: managementUrl http:\/\/127\.0\.0\.1:9\/management does not answer/);
    await world.pulumi(["config", "rm", "certreseller:apiKey"], { cwd: dir });
    const noKey = await failureOf(world.pulumi(["preview"], { cwd: dir, env: { CERTRESELLER_API_KEY: "" } }));
    expect(noKey).toMatch(/resource 'order' has a problem: could not read the product list: certreseller: no apiKey configured\. Set it with `pulumi config set --secret certreseller:apiKey <value>`/);
    expect(await createOrders(sandbox)).toBe(0);
  });
});

describe("configuration errors fail the preview naming the setting; an outage warns", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let html: Awaited<ReturnType<typeof startHtml404>>;

  beforeAll(async () => {
    ({ sandbox, world } = await startSandboxWorld());
    html = await startHtml404();
  });
  afterAll(async () => {
    await html?.stop();
    await closeSandboxWorld({ sandbox, world });
  });

  /** A stack of one Order with exactly `config` (no key or base URL unless given). */
  async function stackWith(name: string, config: Record<string, { value: string; secret?: boolean }>): Promise<Stack> {
    return inlineStack({
      environment: world.environment,
      projectName: name,
      stackName: "e2e",
      program: multiProgram,
      config: { "certreseller:journalDir": { value: world.journalDir }, ...config },
    });
  }

  const CASES: Array<{ title: string; config: () => Record<string, { value: string; secret?: boolean }>; says: RegExp }> = [
    { title: "no apiKey", config: () => ({ "certreseller:baseUrl": { value: sandbox.url } }), says: /no apiKey configured\. Set it with `pulumi config set --secret certreseller:apiKey <value>`/ },
    { title: "no baseUrl", config: () => ({ "certreseller:apiKey": { value: sandbox.apiKey, secret: true } }), says: /no baseUrl configured\. Set it with `pulumi config set certreseller:baseUrl <value>`/ },
    {
      title: "a key the service refuses (401)",
      config: () => ({ "certreseller:apiKey": { value: "ak_nobody0000000000000001:wrong", secret: true }, "certreseller:baseUrl": { value: sandbox.url } }),
      says: /the service refused the API key \(.*\); set certreseller:apiKey \(or CERTRESELLER_API_KEY\) to the account's API key/,
    },
    {
      title: "a base URL answering an HTML page",
      config: () => ({ "certreseller:apiKey": { value: sandbox.apiKey, secret: true }, "certreseller:baseUrl": { value: html.url } }),
      says: /the base URL http:\/\/127\.0\.0\.1:\d+ does not answer as the Partner API \(.*HTTP 404.*\); set certreseller:baseUrl \(or CERTRESELLER_BASE_URL\)/,
    },
    {
      // Before: a warning "could not read the product list (network: …)" and a green preview with no price.
      title: "https:// to the sandbox's plain-HTTP port",
      config: () => ({ "certreseller:apiKey": { value: sandbox.apiKey, secret: true }, "certreseller:baseUrl": { value: sandbox.url.replace(/^http:/, "https:") } }),
      says: /the base URL https:\/\/127\.0\.0\.1:\d+ failed the TLS handshake \(.*TLS handshake failed \(\w+\): the endpoint answered plain HTTP, not TLS.*\); set certreseller:baseUrl \(or CERTRESELLER_BASE_URL\)/,
    },
  ];

  it.each(CASES)("$title: preview fails naming the setting; nothing is bought", async ({ title, config, says }) => {
    const stack = await stackWith(`config-${title.replace(/\W+/g, "-")}`, config());
    const message = await failureOf(stack.preview());
    expect(message).toMatch(/resource 'multi' has a problem: could not read the product list: /);
    expect(message).toMatch(says);
    expect(message).toContain("Nothing is bought until the product list can be read.");
    expect(await createOrders(sandbox)).toBe(0);
  });

  it("the API unreachable (connection refused): preview warns and passes", async () => {
    const stack = await stackWith("outage", {
      "certreseller:apiKey": { value: sandbox.apiKey, secret: true },
      "certreseller:baseUrl": { value: "http://127.0.0.1:9" },
    });
    const seen = recorder();
    await stack.preview({ onOutput: seen.onOutput, onError: seen.onError });
    expect(seen.output).toMatch(/could not read the product list \(network: /);
    expect(seen.output).not.toMatch(/will buy/);
    expect(await createOrders(sandbox)).toBe(0);
  });
});

describe("a plain preview names each purchase with its price", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;

  beforeAll(async () => {
    ({ sandbox, world } = await startSandboxWorld());
    stack = await openStack(world, "plan-line", multiProgram);
  });
  afterAll(() => closeSandboxWorld({ sandbox, world }, [stack]));

  it("one line per purchase at preview; none once nothing is bought", async () => {
    const first = recorder();
    await stack.preview({ onOutput: first.onOutput, onError: first.onError });
    expect(first.output).toMatch(new RegExp(`will buy sandbox-dv-multi \\(12 months\\) for ${DOMAIN.replace(/\./g, "\\.")}, www\\.${DOMAIN.replace(/\./g, "\\.")}: \\d+\\.\\d\\d`));
    expect(await createOrders(sandbox)).toBe(0);
    const up = await stack.up();
    const quoted = String(up.outputs.quotedPrice?.value);
    expect(first.output).toContain(`www.${DOMAIN}: ${quoted}`);
    const again = recorder();
    await stack.preview({ onOutput: again.onOutput, onError: again.onError });
    expect(again.output).not.toMatch(/will buy/);
  });
});
