// The e2e suite's invalid-Order corpus (bad-input-corpus.ts), written as HCL
// attributes, is refused at `plan` by OpenTofu and Terraform, each case with
// an error at its own resource naming the attribute at fault; the sandbox
// sees no CreateOrder. The corpus is one program of one Order per case:
// every case the plan reports is checked, and a plan that stops before the
// provider's checks (Terraform refuses an argument the schema lacks first)
// is run again with the cases it did not report. Two cases HCL cannot
// express (see DROPPED_BY_TERRAFORM) are checked to plan without them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attributePath } from "../../../sdk/src/terraform/names.js";
import { TOOL_NAMES } from "../../../scripts/terraform/index.js";
import { CASES } from "../bad-input-corpus.js";
import { providedTerraform, type TerraformWorld } from "./harness.js";
import { certresellerProgram } from "./programs.js";
import { sandboxWorld, useSandbox } from "./stack.js";

const terraform = providedTerraform();

/** The company members of the schema's `company_info` object: an HCL object must set each (null for absent). */
const COMPANY_MEMBERS = ["company_name", "country_code", "contact_first", "contact_last", "email", "registration_no", "country_name", "province", "city", "address", "postal_code", "phone", "contact_title", "id_number"];

/**
 * Cases HCL cannot express: Terraform converts a value to the attribute's
 * object type before any provider call and drops a member the type lacks, so
 * the provider never sees it. The plan then prices the Order without it (and,
 * as every plan, buys nothing).
 */
const DROPPED_BY_TERRAFORM = new Set(["companyInfo.ceo", "companyInfo.contactName"]);

const snake = (name: string) => attributePath(name)[0] as string;

/** A value as an HCL expression; strings as JSON strings (HCL's escapes), with template sequences escaped. */
function hcl(value: unknown, key?: string): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return JSON.stringify(value).replace(/\$\{/g, "$${").replace(/%\{/g, "%%{");
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => hcl(v)).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [snake(k), v] as const);
  // company_info: every member of the schema's object, null where the case leaves it out.
  const members = key === "company_info" ? [...COMPANY_MEMBERS.filter((m) => !entries.some(([k]) => k === m)).map((m) => [m, null] as const), ...entries] : entries;
  return `{ ${members.map(([k, v]) => `${k} = ${hcl(v)}`).join(", ")} }`;
}

const resourceName = (i: number) => `c${i}`;

function program(version: string, cases: number[]): string {
  const orders = cases.map((i) => {
    const attributes = Object.entries(CASES[i]!.order).map(([name, value]) => `  ${snake(name)} = ${hcl(value, snake(name))}`);
    // A journal_ref each: many cases buy the same product for the same names, which the plan refuses as two
    // instances under one journal key; that error must not stand in for the case's own.
    attributes.push(`  journal_ref = "${resourceName(i)}"`);
    return `# ${CASES[i]!.title}\nresource "certreseller_order" "${resourceName(i)}" {\n${attributes.join("\n")}\n}\n`;
  });
  return certresellerProgram(version, { resources: `\n${orders.join("\n")}` });
}

/** The plan's error diagnostics by the resource each names (`with certreseller_order.c3`). */
function errorsByResource(output: string): Map<string, string[]> {
  const text = output.replace(/^[│╷╵] ?/gm, "");
  const found = new Map<string, string[]>();
  for (const block of text.split(/\n(?=Error: )/).filter((b) => b.startsWith("Error: "))) {
    const match = /with certreseller_order\.(c\d+)/.exec(block) ?? /resource "certreseller_order" "(c\d+)"/.exec(block);
    if (!match) continue;
    found.set(match[1]!, [...(found.get(match[1]!) ?? []), block]);
  }
  return found;
}

describe.skipIf(!terraform)("the invalid-input corpus is refused at plan, naming the attribute, buying nothing", () => {
  const sandbox = useSandbox();

  describe.each(TOOL_NAMES)("%s", (name) => {
    let world: TerraformWorld;
    const reported = new Map<string, string[]>();
    const unreported = new Map<string, string>();

    beforeAll(async () => {
      world = sandboxWorld(terraform!, name, sandbox(), { "main.tf": program(terraform!.providerVersion, [0]) });
      await world.init();
      let left = CASES.map((_, i) => i);
      while (left.length > 0) {
        world.write({ "main.tf": program(terraform!.providerVersion, left) });
        const planned = await world.plan([], { allowFailure: true });
        const output = planned.stdout + planned.stderr;
        const errors = errorsByResource(output);
        const now = left.filter((i) => errors.has(resourceName(i)));
        // A plan that reports none of the cases left: those are unreported (each case's test says so).
        if (now.length === 0) {
          for (const i of left) unreported.set(resourceName(i), output);
          break;
        }
        for (const i of now) reported.set(resourceName(i), errors.get(resourceName(i))!);
        left = left.filter((i) => !errors.has(resourceName(i)));
      }
    }, 600_000);

    afterAll(() => world?.dispose());

    it.each(CASES.map((c, i) => ({ ...c, i })))("$title → $property", ({ property, i }) => {
      if (DROPPED_BY_TERRAFORM.has(property)) {
        expect(unreported.get(resourceName(i)), "Terraform now refuses it: move it back among the refused cases").toMatch(new RegExp(`certreseller_order\\.${resourceName(i)} will be created`));
        return;
      }
      expect(unreported.get(resourceName(i)), "the plan did not refuse it").toBeUndefined();
      const blocks = reported.get(resourceName(i))!.join("\n");
      // The attribute at fault, in Terraform's names: its top-level attribute, and the member for a path.
      for (const step of attributePath(property)) expect(blocks).toContain(String(step));
    });

    it("created no order and sent no CreateOrder through the whole corpus", async () => {
      expect(await sandbox().management.orders()).toHaveLength(0);
      expect((await sandbox().management.operationCounts()).CreateOrder ?? 0).toBe(0);
    });
  });
});
