import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

// The engine starts the plugin for every preview, up and destroy and waits
// for it before the first check: its start is on every command's path.
describe("the plugin's start", () => {
  it("does not load @pulumi/pulumi's program SDK (about 650 modules, 0.5 s), which only a program needs", () => {
    const script = [
      `require(${JSON.stringify(path.join(__dirname, "..", "..", "src", "plugin", "server.ts"))});`,
      `const loaded = Object.keys(require.cache).filter((f) => /node_modules[\\\\/]@pulumi[\\\\/]pulumi[\\\\/]index\\.js$/.test(f));`,
      "process.stdout.write(JSON.stringify(loaded));",
    ].join("\n");
    const out = execFileSync(process.execPath, ["--import", "tsx", "-e", script], { cwd: path.join(__dirname, "..", ".."), encoding: "utf8" });
    expect(JSON.parse(out)).toEqual([]);
  }, 30_000);
});
