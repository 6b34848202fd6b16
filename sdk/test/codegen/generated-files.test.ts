/**
 * Files derived from the declarations are committed (the schema for the
 * provider plugin and other languages, the TypeScript types, the reference
 * tables). Each must equal what `npm run generate` writes now, so a changed
 * declaration cannot leave one behind.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { generatedFiles } from "../../src/codegen/generate.js";

const root = path.resolve(__dirname, "../../..");
const read = (file: string): string | undefined => (fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), "utf8") : undefined);

describe("generated files are current (else run `npm run generate`)", () => {
  const files = generatedFiles(read);
  it("covers the schema, every resource's types and every reference page", () => {
    expect([...files.keys()]).toEqual(expect.arrayContaining(["sdk/schema.json", "sdk/src/resources/order/properties.generated.ts", "docs/reference/order.md", "docs/configuration.md"]));
  });
  for (const [file, content] of files) {
    it(file, () => {
      const committed = read(file) ?? "(missing)";
      expect(committed === content, `${file} is stale: run \`npm run generate\` and commit the result`).toBe(true);
    });
  }
});
