// The Terraform schema is the registry's declarations under Terraform's
// names and flags: every declared property maps, by one rule, so a property
// declared later reaches Terraform with no line in sdk/src/terraform.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { PROVIDER_CONFIG } from "../../src/provider/config.js";
import { RESOURCES } from "../../src/registry.js";
import { GET_ACCOUNT, GET_PRODUCTS } from "../../src/functions/declarations.js";
import { ORDER } from "../../src/resources/order/declaration.js";
import { entries, isInput, isOutput, type PropertyDeclaration } from "../../src/schema/property.js";
import { backendIdentity, purchaseName, terraformStack } from "../../src/terraform/journal-identity.js";
import { attributePath, snakeCase, terraformWords, typeName } from "../../src/terraform/names.js";
import { NOT_SERVED, TERRAFORM_RESOURCES, declaredAttributes, resourceOf } from "../../src/terraform/resources.js";
import { filledWhenUnset, resourceBlock, terraformSchema } from "../../src/terraform/schema.js";

const schema = terraformSchema();

describe("Terraform names", () => {
  it("snake_case from camelCase, one rule", () => {
    expect(snakeCase("orderNo")).toBe("order_no");
    expect(snakeCase("privateKeyPkcs8Pem")).toBe("private_key_pkcs8_pem");
    expect(snakeCase("pfxBase64")).toBe("pfx_base64");
    expect(snakeCase("fingerprintSha256")).toBe("fingerprint_sha256");
    expect(typeName("Rfc2136Record")).toBe("certreseller_rfc2136_record");
    expect(typeName("getProducts")).toBe("certreseller_products");
    expect(attributePath("companyInfo.email")).toEqual(["company_info", "email"]);
    expect(attributePath("domains[2]")).toEqual(["domains", 2]);
    expect(attributePath("")).toEqual([]);
    expect(terraformWords("set `adoptOrderNo: \"X\"` and run `pulumi up` again (`pulumi refresh` first)", ["adoptOrderNo"])).toBe(
      "set `adopt_order_no: \"X\"` and run `terraform apply` again (`terraform apply -refresh-only` first)",
    );
    expect(
      terraformWords(
        "resuming order X bought by an interrupted run at T (not buying again). That run's create stays in the stack as a pending operation, so later commands repeat \"Attempting to deploy or update resources with 1 pending operations from previous deployment.\": once this update has finished, run `pulumi refresh --yes --clear-pending-creates` (a plain `pulumi refresh --yes` keeps it; the Order is in state, only the stale record goes)",
        [],
      ),
    ).toBe("resuming order X bought by an interrupted run at T (not buying again).");
    expect(terraformWords("set certreseller:apiKey (or CERTRESELLER_API_KEY); while `certreseller:dnsResolvers` is unset", [])).toBe(
      "set the provider's `api_key` (or CERTRESELLER_API_KEY); while the provider's `dns_resolvers` is unset",
    );
    expect(terraformWords("Set it with `pulumi config set --secret certreseller:apiKey <value>` or the environment variable CERTRESELLER_API_KEY.", [])).toBe(
      "Set it with `api_key` in the provider block or the environment variable CERTRESELLER_API_KEY.",
    );
  });
});

describe("Terraform schema from the registry", () => {
  it("serves every resource with a handler but the sandbox's test-only ones, and the two data sources", () => {
    expect(Object.keys(schema.resources)).toEqual(["certreseller_order", "certreseller_validation", "certreseller_certificate", "certreseller_rfc2136_record"]);
    const served = RESOURCES.filter((r) => r.handler !== undefined && !String(r.handler).startsWith("testing/") && !Object.hasOwn(NOT_SERVED, String(r.handler))).map((r) => typeName(r.declaration.name));
    expect(Object.keys(schema.resources)).toEqual(served);
    expect(Object.keys(schema.dataSources)).toEqual(["certreseller_account", "certreseller_products"]);
  });

  /** The flags a declared property must have in Terraform. */
  function expectedFlags(p: PropertyDeclaration) {
    if (!isInput(p)) return { computed: true };
    if (p.required) return { required: true };
    return isOutput(p) ? { optional: true, computed: true } : { optional: true };
  }

  for (const [name, r] of TERRAFORM_RESOURCES) {
    it(`${name}: every declared property, with its flags, sensitivity and description`, () => {
      const block = schema.resources[name]!;
      for (const [property, p] of entries(r.declaration.properties)) {
        const attribute = block.attributes[snakeCase(property)];
        if (p.tsOnly) {
          expect(attribute, `${property} is TypeScript-only`).toBeUndefined();
          continue;
        }
        expect(attribute, property).toBeDefined();
        const { required, optional, computed } = attribute!;
        expect({ ...(required ? { required } : {}), ...(optional ? { optional } : {}), ...(computed ? { computed } : {}) }, property).toEqual(expectedFlags(p));
        expect(attribute!.sensitive === true, `${property} sensitive`).toBe(p.secret === true);
        expect(attribute!.description, property).toContain((isInput(p) ? p.description : (p.outputDescription ?? p.description)).slice(1, 40));
        if (isInput(p) && p.change === "replace") expect(attribute!.description, property).toMatch(/Changing it /);
      }
      expect(block.attributes.id).toMatchObject({ computed: true });
    });
  }

  it("secret material is sensitive; the Order takes journal_ref; the Validation and Certificate take order_no", () => {
    const certificate = schema.resources.certreseller_certificate!.attributes;
    for (const name of ["private_key_pem", "private_key_pkcs8_pem", "combined_pem", "pfx_base64", "pfx_password"]) expect(certificate[name]!.sensitive, name).toBe(true);
    expect(schema.resources.certreseller_order!.attributes.company_info!.sensitive).toBe(true);
    expect(schema.resources.certreseller_order!.attributes.journal_ref).toMatchObject({ optional: true, type: "string" });
    expect(schema.resources.certreseller_validation!.attributes.order_no).toMatchObject({ required: true });
    expect(schema.resources.certreseller_certificate!.attributes.order_no).toMatchObject({ required: true });
    expect(schema.resources.certreseller_order!.attributes.price!.type).toEqual(["object", expect.objectContaining({ base_price: "string", san_count: "number", total: "string" })]);
  });

  it("a property declared later appears without touching the Terraform code", () => {
    const order = resourceOf("certreseller_order");
    const declared = { ...ORDER.properties, preferredChain: { description: "A chain to prefer.", type: { kind: "string" }, change: "none" } as PropertyDeclaration };
    const block = resourceBlock({ ...order, attributes: declaredAttributes(declared) });
    expect(block.attributes.preferred_chain).toMatchObject({ type: "string", optional: true, computed: true, description: expect.stringContaining("A chain to prefer.") });
    expect(filledWhenUnset(declared.preferredChain)).toBe(false);
  });

  it("the provider block: every setting, optional, the API key sensitive; the data sources from the function declarations", () => {
    expect(Object.keys(schema.provider.attributes)).toEqual(Object.keys(PROVIDER_CONFIG).map(snakeCase));
    expect(schema.provider.attributes.api_key).toMatchObject({ sensitive: true, optional: true });
    expect(schema.provider.attributes.base_url!.description).toMatch(/CERTRESELLER_BASE_URL/);
    for (const [name, f] of [["certreseller_account", GET_ACCOUNT], ["certreseller_products", GET_PRODUCTS]] as const) {
      const attributes = schema.dataSources[name]!.attributes;
      for (const input of Object.keys(f.inputs)) expect(attributes[snakeCase(input)], input).toMatchObject({ optional: true });
      for (const output of Object.keys(f.outputs)) expect(attributes[snakeCase(output)], output).toMatchObject({ computed: true });
    }
  });
});

describe("the stack a Terraform journal key names", () => {
  function module(files: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tf-stack-"));
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    return dir;
  }

  it("no backend initialised: the local state file's absolute path, workspace default", () => {
    const dir = module({});
    expect(terraformStack({}, dir)).toMatchObject({ backendType: "local", backendConfig: JSON.stringify({ path: path.join(dir, "terraform.tfstate") }), workspace: "default" });
  });

  it("a remote backend: its identifying configuration without credentials, the same from any directory; the workspace from TF_WORKSPACE or .terraform/environment", () => {
    const backend = { version: 3, backend: { type: "s3", config: { bucket: "tf-state", key: "certs/terraform.tfstate", region: "eu-west-1", access_key: "AKIA…", secret_key: "s3cr3t", token: null, encrypt: true } } };
    const a = module({ ".terraform/terraform.tfstate": JSON.stringify(backend), ".terraform/environment": "staging\n" });
    const b = module({ "data/terraform.tfstate": JSON.stringify(backend) });
    const fromA = terraformStack({}, a);
    expect(fromA).toMatchObject({ backendType: "s3", workspace: "staging" });
    expect(fromA.backendConfig).toBe(JSON.stringify({ bucket: "tf-state", key: "certs/terraform.tfstate", region: "eu-west-1" }));
    expect(fromA.backendConfig).not.toMatch(/AKIA|s3cr3t/);
    const fromB = terraformStack({ TF_DATA_DIR: "data", TF_WORKSPACE: "staging" }, b);
    expect(backendIdentity(fromB)).toBe(backendIdentity(fromA));
    expect(fromB.workspace).toBe("staging");
  });

  it("the purchase's own name: product and sorted names, or the journal_ref", () => {
    expect(purchaseName({ productCode: "p", domain: "B.example.com", sanDomains: ["a.example.com"] }, null)).toBe("p:a.example.com,b.example.com");
    expect(purchaseName({ productCode: "p", domain: "b.example.com", sanDomains: ["a.example.com"] }, "site-1")).toBe("ref=site-1");
  });
});
