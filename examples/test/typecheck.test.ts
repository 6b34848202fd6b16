/**
 * Every example compiles against the real types: pulumi-certreseller's
 * declarations (sdk/dist, built by `npm run build`), @pulumi/pulumi and
 * @pulumi/cloudflare.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const examples = path.resolve(__dirname, "..");

describe("examples", () => {
  it("type-check with tsc --noEmit", async () => {
    const sdkTypes = path.resolve(examples, "..", "sdk", "dist", "index.d.ts");
    expect(existsSync(sdkTypes), "sdk/dist is missing: run `npm run build` first").toBe(true);
    const tsc = require.resolve("typescript/bin/tsc");
    const result = await promisify(execFile)(process.execPath, [tsc, "-p", path.join(examples, "tsconfig.json"), "--noEmit", "--pretty", "false"], {
      cwd: examples,
    }).then(
      () => ({ code: 0, output: "" }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, output: `${error.stdout ?? ""}${error.stderr ?? ""}` }),
    );
    expect(result.output).toBe("");
    expect(result.code).toBe(0);
  }, 240_000);
});
