// The docs' HCL program (docs/terraform.md, "Resources in HCL"), read from
// the doc itself, for OpenTofu and Terraform, against the sandbox validating
// for real in a BIND 9 of its own: `init` offline from the mirrors (ours and
// hashicorp/dns's); `plan` shows the price and buys nothing (the sandbox
// counts orders); `apply` buys once, publishes the validation records through
// hashicorp/dns (RFC 2136, TSIG) and downloads a chain that openssl verifies;
// a second `plan` has nothing to do; `destroy` deletes the records and
// refunds. The doc's alternative (certreseller_rfc2136_record in place of
// the dns provider and resources, as the doc says) runs the same steps under
// OpenTofu. Only the doc's literals (names, zone, server, port, key name)
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
import { ordersFor } from "../harness/kill-points.js";
import { startTestSandbox, type TestSandbox } from "../harness/sandbox.js";
import { dnsProviderMissing, providedTerraform, shownResources, type TerraformToolName, type TerraformWorld } from "./harness.js";
import { sandboxWorld } from "./stack.js";

const terraform = providedTerraform();
const bindMissing = skipWithout(inject("bind") ? undefined : "no BIND 9 (see the e2e setup's [bind] lines)");
const dnsMissing = !!terraform && dnsProviderMissing(terraform);

/** The HCL blocks under "## Resources in HCL" of docs/terraform.md, as printed: the program, then the alternative. */
function docsBlocks(): [string, string] {
  const doc = fs.readFileSync(path.join(repoRoot, "docs", "terraform.md"), "utf8");
  const at = doc.indexOf("\n## Resources in HCL\n");
  const section = at < 0 ? "" : doc.slice(at + 1, doc.indexOf("\n## ", at + 1));
  const blocks = [...section.matchAll(/```hcl\n([\s\S]*?)```/g)].map((match) => match[1]!);
  if (blocks.length < 2) throw new Error('docs/terraform.md: expected the program and its alternative, two ```hcl blocks under "## Resources in HCL"');
  return [blocks[0]!, blocks[1]!];
}

/** Puts `variable` in place of each literal (`attribute = literal`), each found exactly once. */
function withVariables(hcl: string, literals: [RegExp, string][]): string {
  for (const [literal, variable] of literals) {
    const found = hcl.match(new RegExp(literal.source, "gm")) ?? [];
    if (found.length !== 1) throw new Error(`docs/terraform.md's program: expected ${literal} once, found it ${found.length} times; update this file`);
    hcl = hcl.replace(literal, `$1${variable}`);
  }
  return hcl;
}

/** The doc's literals and the variable the test puts in place of each. */
const LITERALS: [RegExp, string][] = [
  [/^([ \t]*domain\s*=\s*)"example\.com"/m, "var.domain"],
  [/^([ \t]*san_domains\s*=\s*)\["www\.example\.com"\]/m, "var.san_domains"],
  [/^([ \t]*zone\s*=\s*)"example\.com"/m, "var.zone"],
  [/^([ \t]*server\s*=\s*)"192\.0\.2\.53"/m, "var.dns_server"],
  [/^([ \t]*port\s*=\s*)53\b/m, "var.dns_port"],
  [/^([ \t]*key_name\s*=\s*)"certreseller\."/m, "var.tsig_key_name"],
];
const ALTERNATIVE_LITERALS: [RegExp, string][] = [
  [/^([ \t]*server\s*=\s*)"192\.0\.2\.53:53"/m, "var.dns_address"],
  [/^([ \t]*zone\s*=\s*)"example\.com"/m, "var.zone"],
  [/^([ \t]*tsig_key_name\s*=\s*)"certreseller"/m, "var.tsig_key_name"],
];

const VARIABLES = `
variable "domain" { type = string }
variable "san_domains" { type = list(string) }
variable "zone" { type = string }
variable "dns_server" { type = string }
variable "dns_port" { type = number }
variable "dns_address" { type = string }
variable "tsig_key_name" { type = string }
`;

/** `hcl` without the top-level block that starts with `header` (through its closing `}` at column 0). */
function withoutBlock(hcl: string, header: string): string {
  const start = hcl.indexOf(`\n${header} {\n`);
  const end = start < 0 ? -1 : hcl.indexOf("\n}\n", start);
  if (end < 0) throw new Error(`docs/terraform.md's program: no top-level ${header} block; update this file`);
  return hcl.slice(0, start) + hcl.slice(end + 2);
}

/** How the records are published: the doc's program (hashicorp/dns), or its alternative (certreseller_rfc2136_record) in place of the dns provider and resources, as the doc says. */
type Variant = "hashicorp/dns" | "rfc2136";

function program(variant: Variant): Record<string, string> {
  const [main, alternative] = docsBlocks();
  let hcl = withVariables(main, LITERALS);
  if (variant === "rfc2136") {
    hcl = withoutBlock(hcl, 'provider "dns"');
    hcl = withoutBlock(hcl, 'resource "dns_cname_record" "validation"');
    hcl = withoutBlock(hcl, 'resource "dns_txt_record_set" "validation"') + withVariables(alternative, ALTERNATIVE_LITERALS);
    const dependsOn = /depends_on\s*=\s*\[dns_txt_record_set\.validation, dns_cname_record\.validation\]/;
    if (!dependsOn.test(hcl)) throw new Error("docs/terraform.md's program: the Certificate's depends_on names other records; update this file");
    hcl = hcl.replace(dependsOn, "depends_on = [certreseller_rfc2136_record.validation]");
  }
  return { "main.tf": hcl, "variables.tf": VARIABLES };
}

// Each CLI runs the program; the alternative runs under OpenTofu only (the same provider code under either CLI).
const CASES: [string, TerraformToolName, Variant][] = [...TOOL_NAMES.map((name): [string, TerraformToolName, Variant] => [name, name, "hashicorp/dns"]), ["tofu, certreseller_rfc2136_record instead", "tofu", "rfc2136"]];

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

  describe.each(CASES)("%s", (_, name, variant) => {
    const domain = `${variant === "rfc2136" ? "alt-" : ""}${name}.e2e.test`;
    const names = [domain, `www.${domain}`];
    let world: TerraformWorld;
    let vars: string[];

    beforeAll(() => {
      world = sandboxWorld(terraform!, name, sandbox, program(variant));
      // The doc's key_algorithm stays as printed: the server's key must be what it names.
      expect(bind.algorithm).toBe("hmac-sha256");
      vars = Object.entries({ domain, zone: "e2e.test", dns_server: "127.0.0.1", dns_port: bind.port, dns_address: bind.address, tsig_key_name: bind.keyName }).flatMap(([key, value]) => ["-var", `${key}=${value}`]);
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
      expect(await ordersFor(sandbox, domain)).toEqual([]);
    });

    it(`apply buys once, publishes the records in BIND through ${variant}, and the chain verifies`, async () => {
      await world.apply(vars);
      const orders = await ordersFor(sandbox, domain);
      expect(orders).toHaveLength(1);
      const shown = shownResources(await world.show());
      expect(shown["certreseller_order.site"].values.order_no).toBe(orders[0]!.orderNo);
      const records = shown["certreseller_validation.site"].values.records as { fqdn: string; value: string; record_type: string }[];
      expect(records.map((record) => record.fqdn).sort()).toEqual(names.map((n) => `_dnsauth.${n}`).sort());
      for (const [i, record] of records.entries()) {
        expect(record.record_type).toBe("TXT");
        expect(await dns.txt(record.fqdn)).toEqual([record.value]);
        if (variant === "hashicorp/dns") expect(shown[`dns_txt_record_set.validation[${i}]`].values).toMatchObject({ zone: "e2e.test.", txt: [record.value] });
        else expect(shown[`certreseller_rfc2136_record.validation[${i}]`].values).toMatchObject({ fqdn: record.fqdn, type: "TXT", value: record.value, pre_existing: false });
      }
      const publishedBy = variant === "hashicorp/dns" ? "dns_txt_record_set." : "certreseller_rfc2136_record.";
      expect(Object.keys(shown).filter((address) => /^(dns_|certreseller_rfc2136)/.test(address) && !address.startsWith(publishedBy))).toEqual([]);
      const fullChain = String(shown["certreseller_certificate.site"].values.full_chain_pem);
      expect(opensslVerify(fullChain, await sandbox.management.rootPem())).toMatch(/leaf\.pem: OK/);
      // Checked as booleans: a failure must not print the state (a private key, the TSIG secret) into the log.
      const state = JSON.stringify(world.state());
      expect(state.includes(sandbox.apiKey), "the API key is in the state").toBe(false);
      if (variant === "hashicorp/dns") {
        expect(state.includes(bind.secret), "the TSIG secret is in the state: hashicorp/dns keeps it in the provider block").toBe(false);
      } else {
        // A resource argument, kept for the record's destroy: marked sensitive on every instance.
        const instances = (world.state().resources as any[]).filter((r) => r.type === "certreseller_rfc2136_record").flatMap((r) => r.instances);
        expect(instances.map((i: any) => JSON.stringify(i.sensitive_attributes).includes('"tsig_secret"'))).toEqual(records.map(() => true));
      }
    });

    it("a second plan has no changes", async () => {
      const again = await world.plan([...vars, "-detailed-exitcode"], { allowFailure: true });
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(await ordersFor(sandbox, domain)).toHaveLength(1);
    });

    it("refresh reads every resource back and changes nothing", async () => {
      const before = shownResources(await world.show());
      const requests = (await sandbox.management.requests()).length;
      await world.run(["refresh", "-input=false", ...vars]);
      const after = shownResources(await world.show());
      expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
      expect(after["certreseller_order.site"].values.order_no).toBe(before["certreseller_order.site"].values.order_no);
      // It asked the API (GetRecord) and moved no money.
      const asked = (await sandbox.management.requests()).slice(requests).map((r) => r.operation);
      expect(asked).toContain("GetRecord");
      expect(asked.filter((op) => ["CreateOrder", "CancelOrder", "ApplySign"].includes(op))).toEqual([]);
      const again = await world.plan([...vars, "-detailed-exitcode"], { allowFailure: true });
      expect(again.code, again.stdout + again.stderr).toBe(0);
    });

    it("destroy deletes the records and refunds the order", async () => {
      await world.destroy(vars);
      for (const fqdn of names.map((n) => `_dnsauth.${n}`)) expect(await dns.txt(fqdn)).toEqual([]);
      const [order] = await ordersFor(sandbox, domain);
      expect(order?.orderStatusLabel).toBe("refunded");
      expect(order?.refund).toMatchObject({ amount: order?.amount });
      expect(await ordersFor(sandbox, domain)).toHaveLength(1);
    });
  });
});
