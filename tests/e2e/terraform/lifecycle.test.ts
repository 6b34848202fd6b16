// The docs' HCL program (docs/terraform.md, "Resources in HCL"), read from
// the doc itself, for OpenTofu and Terraform, against the sandbox validating
// for real in a BIND 9 of its own: `init` offline from the mirrors (ours and
// hashicorp/dns's); `plan` shows the price and buys nothing (the sandbox
// counts orders); `apply` buys once, publishes the validation records through
// hashicorp/dns (RFC 2136, TSIG) and downloads a chain that openssl verifies;
// a second `plan` has nothing to do; `destroy` deletes the records and
// refunds. Only the doc's literals (names, zone, server, port, key name)
// become variables; every one must be found exactly once, so a doc edit that
// moves them fails here instead of testing another program.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startBind, type RunningBind } from "../../../scripts/dns/index.js";
import { repoRoot } from "../../../scripts/engine/index.js";
import { DNS_PROVIDER_VERSION, PROVIDER_SOURCE, TOOL_NAMES } from "../../../scripts/terraform/index.js";
import { skipWithout } from "../../support/ci.js";
import { opensslVerify } from "../../support/openssl.js";
import { dnsReader, type DnsReader } from "../dns/lookup.js";
import { startTestSandbox, type TestSandbox } from "../harness/sandbox.js";
import { createTerraformWorld, dnsProviderMissing, providedTerraform, shownResources, type TerraformWorld } from "./harness.js";

const terraform = providedTerraform();
const bindMissing = skipWithout(inject("bind") ? undefined : "no BIND 9 (see the e2e setup's [bind] lines)");
const dnsMissing = !!terraform && dnsProviderMissing(terraform);

/** The first HCL block under "## Resources in HCL" of docs/terraform.md, as printed. */
function docsProgram(): string {
  const doc = fs.readFileSync(path.join(repoRoot, "docs", "terraform.md"), "utf8");
  const at = doc.indexOf("\n## Resources in HCL\n");
  const block = at < 0 ? null : /```hcl\n([\s\S]*?)```/.exec(doc.slice(at));
  if (!block) throw new Error('docs/terraform.md: no ```hcl block under "## Resources in HCL"');
  return block[1]!;
}

/** Each literal of the doc's program (`attribute = literal`) and the variable the test puts in its place. */
const LITERALS: [RegExp, string][] = [
  [/^([ \t]*domain\s*=\s*)"example\.com"/m, "var.domain"],
  [/^([ \t]*san_domains\s*=\s*)\["www\.example\.com"\]/m, "var.san_domains"],
  [/^([ \t]*zone\s*=\s*)"example\.com"/m, "var.zone"],
  [/^([ \t]*server\s*=\s*)"192\.0\.2\.53"/m, "var.dns_server"],
  [/^([ \t]*port\s*=\s*)53\b/m, "var.dns_port"],
  [/^([ \t]*key_name\s*=\s*)"certreseller\."/m, "var.tsig_key_name"],
];

const VARIABLES = `
variable "domain" { type = string }
variable "san_domains" { type = list(string) }
variable "zone" { type = string }
variable "dns_server" { type = string }
variable "dns_port" { type = number }
variable "tsig_key_name" { type = string }
`;

/** The doc's program with its literals as variables (declared in a second file, as a user's variables.tf). */
function program(): Record<string, string> {
  let hcl = docsProgram();
  for (const [literal, variable] of LITERALS) {
    const found = hcl.match(new RegExp(literal.source, "gm")) ?? [];
    if (found.length !== 1) throw new Error(`docs/terraform.md's program: expected ${literal} once, found it ${found.length} times; update LITERALS in this file`);
    hcl = hcl.replace(literal, `$1${variable}`);
  }
  return { "main.tf": hcl, "variables.tf": VARIABLES };
}

describe.skipIf(!terraform || bindMissing || dnsMissing)("the docs' program: plan, apply, plan, destroy", () => {
  let bind: RunningBind;
  let sandbox: TestSandbox;
  let dns: DnsReader;

  beforeAll(async () => {
    bind = await startBind({ zones: ["e2e.test."] });
    sandbox = await startTestSandbox({ validation: "real" }, { resolver: bind.address });
    dns = dnsReader(bind.address);
  });

  afterAll(async () => {
    await sandbox?.stop();
    await bind?.stop();
  });

  const ordersFor = async (domain: string) => (await sandbox.management.orders()).filter((o) => (o.domains as string[] | undefined)?.includes(domain));

  describe.each(TOOL_NAMES)("%s", (name) => {
    const domain = `${name}.e2e.test`;
    const names = [domain, `www.${domain}`];
    let world: TerraformWorld;
    let vars: string[];

    beforeAll(() => {
      world = createTerraformWorld(terraform!, name, program());
      Object.assign(world.env, { CERTRESELLER_API_KEY: sandbox.apiKey, CERTRESELLER_BASE_URL: sandbox.url, CERTRESELLER_JOURNAL_DIR: `${world.dir}/../journal` });
      // The doc's key_algorithm stays as printed: the server's key must be what it names.
      expect(bind.algorithm).toBe("hmac-sha256");
      vars = Object.entries({ domain, zone: "e2e.test", dns_server: "127.0.0.1", dns_port: bind.port, tsig_key_name: bind.keyName }).flatMap(([key, value]) => ["-var", `${key}=${value}`]);
      vars.push("-var", `san_domains=["www.${domain}"]`);
      world.env.TF_VAR_tsig_secret = bind.secret;
    });

    afterAll(async () => {
      // A failed step leaves an order behind: destroy what the state holds, then drop the world.
      if (world?.state()?.resources?.length) await world.destroy(vars, { allowFailure: true });
      world?.dispose();
    });

    it("init installs both providers from the mirrors alone", async () => {
      const { stdout } = await world.init();
      expect(stdout).toContain(`Installed ${PROVIDER_SOURCE} v${terraform!.providerVersion}`);
      // A bare hashicorp/dns: registry.terraform.io to Terraform, registry.opentofu.org to OpenTofu; the mirror holds both.
      expect(stdout).toMatch(new RegExp(`Installed (registry\\.(terraform\\.io|opentofu\\.org)/)?hashicorp/dns v${DNS_PROVIDER_VERSION.replace(/\./g, "\\.")}`));
    });

    it("plan shows the price and buys nothing", async () => {
      const { stdout } = await world.plan(vars);
      expect(stdout).toMatch(/quoted_price\s+=\s+"\d+\.\d\d"/);
      expect(stdout).toMatch(/will buy sandbox-dv-multi \(12 months\) for .*: \d+\.\d\d/);
      expect(stdout).toMatch(/Plan: \d+ to add, 0 to change, 0 to destroy/);
      expect(await ordersFor(domain)).toEqual([]);
    });

    it("apply buys once, publishes the records in BIND through hashicorp/dns, and the chain verifies", async () => {
      await world.apply(vars);
      const orders = await ordersFor(domain);
      expect(orders).toHaveLength(1);
      const shown = shownResources(await world.show());
      expect(shown["certreseller_order.site"].values.order_no).toBe(orders[0]!.orderNo);
      const records = shown["certreseller_validation.site"].values.records as { fqdn: string; value: string; record_type: string }[];
      expect(records.map((record) => record.fqdn).sort()).toEqual(names.map((n) => `_dnsauth.${n}`).sort());
      for (const [i, record] of records.entries()) {
        expect(record.record_type).toBe("TXT");
        expect(await dns.txt(record.fqdn)).toEqual([record.value]);
        expect(shown[`dns_txt_record_set.validation[${i}]`].values).toMatchObject({ zone: "e2e.test.", txt: [record.value] });
      }
      expect(Object.keys(shown).filter((address) => address.startsWith("dns_cname_record."))).toEqual([]);
      const fullChain = String(shown["certreseller_certificate.site"].values.full_chain_pem);
      expect(opensslVerify(fullChain, await sandbox.management.rootPem())).toMatch(/leaf\.pem: OK/);
      expect(JSON.stringify(world.state())).not.toContain(sandbox.apiKey);
      expect(JSON.stringify(world.state())).not.toContain(bind.secret);
    });

    it("a second plan has no changes", async () => {
      const again = await world.plan([...vars, "-detailed-exitcode"], { allowFailure: true });
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(await ordersFor(domain)).toHaveLength(1);
    });

    it("destroy deletes the records and refunds the order", async () => {
      await world.destroy(vars);
      for (const fqdn of names.map((n) => `_dnsauth.${n}`)) expect(await dns.txt(fqdn)).toEqual([]);
      const [order] = await ordersFor(domain);
      expect(order?.orderStatusLabel).toBe("refunded");
      expect(order?.refund).toMatchObject({ amount: order?.amount });
      expect(await ordersFor(domain)).toHaveLength(1);
    });
  });
});
