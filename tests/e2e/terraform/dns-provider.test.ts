// hashicorp/dns alone, built from third_party/terraform-provider-dns and
// installed from its filesystem mirror, for OpenTofu and Terraform: an
// offline `init`, an `apply` of a TXT record set and a CNAME into BIND over
// RFC 2136 signed with TSIG, read back with DNS queries, a no-change `plan`,
// and a `destroy` that removes them. Nothing of ours: a failure here is the
// neighbour's build, its mirror or BIND, never our provider.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startBind, type RunningBind } from "../../../scripts/dns/index.js";
import * as os from "node:os";
import { DNS_PROVIDER_SOURCE_DIR, DNS_PROVIDER_VERSION, dnsProviderSourceKey, TOOL_NAMES } from "../../../scripts/terraform/index.js";
import { skipWithout } from "../../support/ci.js";
import { dnsReader, type DnsReader } from "../dns/lookup.js";
import { createTerraformWorld, dnsProviderMissing, providedTerraform, shownResources, type TerraformWorld } from "./harness.js";

const terraform = providedTerraform();
const bindMissing = skipWithout(inject("bind") ? undefined : "no BIND 9 (see the e2e setup's [bind] lines)");
const dnsMissing = !!terraform && dnsProviderMissing(terraform);

// A bare `hashicorp/dns`, as users write it: each CLI reads it as its own registry's, and the mirror answers for both.
const PROGRAM = `
terraform {
  required_providers {
    dns = {
      source  = "hashicorp/dns"
      version = "${DNS_PROVIDER_VERSION}"
    }
  }
}

variable "server" { type = string }
variable "port" { type = number }
variable "key_name" { type = string }
variable "key_algorithm" { type = string }
variable "key_secret" {
  type      = string
  sensitive = true
}
variable "label" { type = string }

provider "dns" {
  update {
    server        = var.server
    port          = var.port
    key_name      = var.key_name
    key_algorithm = var.key_algorithm
    key_secret    = var.key_secret
  }
}

resource "dns_txt_record_set" "hello" {
  zone = "e2e.test."
  name = "_hello.\${var.label}"
  txt  = ["hello from \${var.label}", "a second string"]
  ttl  = 60
}

resource "dns_cname_record" "alias" {
  zone  = "e2e.test."
  name  = "alias.\${var.label}"
  cname = "target.\${var.label}.e2e.test."
  ttl   = 60
}
`;

describe.skipIf(!terraform || bindMissing || dnsMissing)("hashicorp/dns into BIND with TSIG", () => {
  let bind: RunningBind;
  let dns: DnsReader;

  beforeAll(async () => {
    bind = await startBind({ zones: ["e2e.test."] });
    dns = dnsReader(bind.address);
  });

  afterAll(async () => {
    await bind?.stop();
  });

  describe.each(TOOL_NAMES)("%s", (name) => {
    const txtName = `_hello.${name}.e2e.test`;
    const cnameName = `alias.${name}.e2e.test`;
    let world: TerraformWorld;
    let vars: string[];

    beforeAll(() => {
      world = createTerraformWorld(terraform!, name, { "main.tf": PROGRAM });
      // bind.keyName is absolute ("certreseller-e2e."): hashicorp/dns refuses a key name without the trailing dot.
      vars = Object.entries({ server: "127.0.0.1", port: bind.port, key_name: bind.keyName, key_algorithm: bind.algorithm, label: name }).flatMap(([key, value]) => ["-var", `${key}=${value}`]);
      world.env.TF_VAR_key_secret = bind.secret;
    });

    afterAll(async () => {
      if (world?.state()?.resources?.length) await world.destroy(vars, { allowFailure: true });
      world?.dispose();
    });

    it("init installs hashicorp/dns from the mirror alone", async () => {
      const { stdout } = await world.init();
      const registry = name === "tofu" ? "registry.opentofu.org" : "registry.terraform.io";
      expect(stdout).toMatch(new RegExp(`Installed (${registry.replace(/\./g, "\\.")}/)?hashicorp/dns v${DNS_PROVIDER_VERSION.replace(/\./g, "\\.")}`));
      // The lock file pins the mirror's binary under the registry this CLI reads a bare source as.
      const lock = fs.readFileSync(path.join(world.dir, ".terraform.lock.hcl"), "utf8");
      expect(lock).toContain(`provider "${registry}/hashicorp/dns"`);
      expect(lock).toMatch(/"h1:[A-Za-z0-9+/=]+"/);
    });

    it("apply publishes the records, a DNS query reads them back, a second plan has no changes", async () => {
      await world.apply(vars);
      expect((await dns.txt(txtName)).sort()).toEqual(["a second string", `hello from ${name}`]);
      expect(await dns.cname(cnameName)).toEqual([`target.${name}.e2e.test`]);
      const shown = shownResources(await world.show());
      expect(shown["dns_txt_record_set.hello"].values).toMatchObject({ zone: "e2e.test.", name: `_hello.${name}`, ttl: 60 });
      // A boolean, so a failure does not print the secret: the key is provider configuration, never in state.
      expect(JSON.stringify(world.state()).includes(bind.secret), "the TSIG secret is in the state").toBe(false);

      const again = await world.plan([...vars, "-detailed-exitcode"], { allowFailure: true });
      expect(again.code, again.stdout + again.stderr).toBe(0);
    });

    it("destroy removes them", async () => {
      await world.destroy(vars);
      expect(await dns.txt(txtName)).toEqual([]);
      expect(await dns.cname(cnameName)).toEqual([]);
      expect(shownResources(await world.show())).toEqual({});
    });
  });
});

describe("the cache key of the vendored source", () => {
  it("changes with a Go file, go.mod or go.sum, not with the docs beside them", () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-dns-key-"));
    try {
      fs.cpSync(DNS_PROVIDER_SOURCE_DIR, copy, { recursive: true });
      const key = dnsProviderSourceKey(copy);
      expect(key).toBe(dnsProviderSourceKey(DNS_PROVIDER_SOURCE_DIR));
      fs.appendFileSync(path.join(copy, "PROVENANCE.md"), "\nan edit\n");
      expect(dnsProviderSourceKey(copy)).toBe(key);
      fs.appendFileSync(path.join(copy, "internal", "provider", "provider.go"), "\n// an edit\n");
      const edited = dnsProviderSourceKey(copy);
      expect(edited).not.toBe(key);
      fs.appendFileSync(path.join(copy, "go.sum"), "\n");
      expect(dnsProviderSourceKey(copy)).not.toBe(edited);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
