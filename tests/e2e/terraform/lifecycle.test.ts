// The docs' HCL program (docs/terraform.md, "Resources in HCL") through the
// packed mirror, for OpenTofu and Terraform, against the sandbox validating
// for real in a BIND 9 of its own: `init` offline; `plan` shows the price
// and buys nothing (the sandbox counts orders); `apply` buys once, publishes
// the validation records over RFC 2136 and downloads a chain that openssl
// verifies; a second `plan` has nothing to do; `destroy` deletes the records
// and refunds. The docs' literals (names, zone, server, key) are variables.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startBind, type RunningBind } from "../../../scripts/dns/index.js";
import { PROVIDER_SOURCE, TOOL_NAMES } from "../../../scripts/terraform/index.js";
import { skipWithout } from "../../support/ci.js";
import { opensslVerify } from "../../support/openssl.js";
import { dnsReader, type DnsReader } from "../dns/lookup.js";
import { startTestSandbox, type TestSandbox } from "../harness/sandbox.js";
import { createTerraformWorld, providedTerraform, shownResources, type TerraformWorld } from "./harness.js";

const terraform = providedTerraform();
const bindMissing = skipWithout(inject("bind") ? undefined : "no BIND 9 (see the e2e setup's [bind] lines)");

/** The docs' program: the products data source, an Order, its Validation, one RFC 2136 record per name, the Certificate. */
const program = (version: string) => `
terraform {
  required_providers {
    certreseller = {
      source  = "${PROVIDER_SOURCE}"
      version = "${version}"
    }
  }
}

variable "domain" { type = string }
variable "san_domains" { type = list(string) }
variable "zone" { type = string }
variable "dns_server" { type = string }
variable "tsig_key_name" { type = string }
variable "tsig_secret" {
  type      = string
  sensitive = true
}

# api_key and base_url from CERTRESELLER_API_KEY and CERTRESELLER_BASE_URL: the key in no file.
provider "certreseller" {}

data "certreseller_products" "dv" {
  product_code = "sandbox-dv-multi"
}

resource "certreseller_order" "site" {
  product_code        = "sandbox-dv-multi"
  domain              = var.domain
  san_domains         = var.san_domains
  verification_method = "dns"
  renew_before_days   = 30
}

resource "certreseller_validation" "site" {
  order_no   = certreseller_order.site.order_no
  domains    = concat([certreseller_order.site.domain], certreseller_order.site.san_domains, certreseller_order.site.wildcard_domains)
  method     = certreseller_order.site.verification_method
  request_id = certreseller_order.site.request_id
}

resource "certreseller_rfc2136_record" "validation" {
  count         = length(certreseller_validation.site.domains)
  server        = var.dns_server
  zone          = var.zone
  fqdn          = certreseller_validation.site.records[count.index].fqdn
  type          = certreseller_validation.site.records[count.index].record_type
  value         = certreseller_validation.site.records[count.index].value
  tsig_key_name = var.tsig_key_name
  tsig_secret   = var.tsig_secret
}

resource "certreseller_certificate" "site" {
  order_no          = certreseller_order.site.order_no
  request_id        = certreseller_order.site.request_id
  renew_before_days = certreseller_order.site.renew_before_days
  output_formats    = ["fullChainPem"]
  depends_on        = [certreseller_rfc2136_record.validation]
}

output "full_chain" {
  value = certreseller_certificate.site.full_chain_pem
}
`;

describe.skipIf(!terraform || bindMissing)("the docs' program: plan, apply, plan, destroy", () => {
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
      world = createTerraformWorld(terraform!, name, { "main.tf": program(terraform!.providerVersion) });
      Object.assign(world.env, { CERTRESELLER_API_KEY: sandbox.apiKey, CERTRESELLER_BASE_URL: sandbox.url, CERTRESELLER_JOURNAL_DIR: `${world.dir}/../journal` });
      vars = Object.entries({ domain, zone: "e2e.test", dns_server: bind.address, tsig_key_name: bind.keyName }).flatMap(([key, value]) => ["-var", `${key}=${value}`]);
      vars.push("-var", `san_domains=["www.${domain}"]`);
      world.env.TF_VAR_tsig_secret = bind.secret;
    });

    afterAll(async () => {
      // A failed step leaves an order behind: destroy what the state holds, then drop the world.
      if (world?.state()?.resources?.length) await world.destroy(vars, { allowFailure: true });
      world?.dispose();
    });

    it("init installs the provider from the mirror alone", async () => {
      const { stdout } = await world.init();
      expect(stdout).toContain(`Installed ${PROVIDER_SOURCE} v${terraform!.providerVersion}`);
    });

    it("plan shows the price and buys nothing", async () => {
      const { stdout } = await world.plan(vars);
      expect(stdout).toMatch(/quoted_price\s+=\s+"\d+\.\d\d"/);
      expect(stdout).toMatch(/will buy sandbox-dv-multi \(12 months\) for .*: \d+\.\d\d/);
      expect(stdout).toMatch(/Plan: \d+ to add, 0 to change, 0 to destroy/);
      expect(await ordersFor(domain)).toEqual([]);
    });

    it("apply buys once, publishes the records in BIND, and the chain verifies", async () => {
      await world.apply(vars);
      const orders = await ordersFor(domain);
      expect(orders).toHaveLength(1);
      const shown = shownResources(await world.show());
      expect(shown["certreseller_order.site"].values.order_no).toBe(orders[0]!.orderNo);
      for (const record of shown["certreseller_validation.site"].values.records as { fqdn: string; value: string }[]) {
        expect(await dns.txt(record.fqdn)).toEqual([record.value]);
      }
      const fullChain = String(shown["certreseller_certificate.site"].values.full_chain_pem);
      expect(opensslVerify(fullChain, await sandbox.management.rootPem())).toMatch(/leaf\.pem: OK/);
      expect(JSON.stringify(world.state())).not.toContain(sandbox.apiKey);
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
