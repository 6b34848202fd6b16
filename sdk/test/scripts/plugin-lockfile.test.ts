import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { pluginLockfile } from "../../../scripts/plugin/pack.js";

const ROOT = path.resolve(__dirname, "../../..");

describe("the plugin archive's lockfile (scripts/plugin/pack.ts)", () => {
  const workspace = {
    lockfileVersion: 3,
    packages: {
      "": { name: "workspace", workspaces: ["sdk"] },
      sdk: { name: "pulumi-certreseller", dependencies: { a: "^1.0.0" } },
      "node_modules/pulumi-certreseller": { resolved: "sdk", link: true },
      "node_modules/a": { version: "1.2.0", dependencies: { b: "^2.0.0" }, peerDependencies: { p: "*", q: "*" }, peerDependenciesMeta: { q: { optional: true } } },
      "node_modules/a/node_modules/b": { version: "2.1.0", dependencies: { c: "^1.0.0" }, optionalDependencies: { missing: "*" } },
      "node_modules/b": { version: "1.0.0", dev: true },
      "node_modules/c": { version: "1.0.3", dev: true },
      "node_modules/p": { version: "3.0.0", devOptional: true },
      "node_modules/q": { version: "1.0.0" },
      "node_modules/unrelated": { version: "9.9.9" },
    },
  };

  it("holds exactly what Node's resolution reaches from the SDK's dependencies, at the same paths, as production packages", () => {
    const lock = pluginLockfile(workspace, { a: "^1.0.0" });
    expect(Object.keys(lock.packages).sort()).toEqual(["", "node_modules/a", "node_modules/a/node_modules/b", "node_modules/c", "node_modules/p"]);
    expect(lock.packages[""]).toEqual({ name: "pulumi-resource-certreseller", dependencies: { a: "^1.0.0" } });
    expect(lock.packages["node_modules/a/node_modules/b"]!.version).toBe("2.1.0"); // the nested copy, not the root's 1.0.0
    for (const entry of Object.values(lock.packages)) {
      expect(entry.dev).toBeUndefined();
      expect(entry.devOptional).toBeUndefined();
    }
  });

  it("refuses a dependency the lockfile does not resolve, naming it", () => {
    expect(() => pluginLockfile(workspace, { zz: "*" })).toThrow(/does not resolve zz/);
  });

  it("pins the workspace's own @pulumi/pulumi for the SDK's dependencies", () => {
    const real = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as Parameters<typeof pluginLockfile>[0];
    const sdk = JSON.parse(fs.readFileSync(path.join(ROOT, "sdk", "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const lock = pluginLockfile(real, sdk.dependencies);
    expect(lock.packages["node_modules/@pulumi/pulumi"]!.version).toBe(real.packages["node_modules/@pulumi/pulumi"]!.version);
    for (const name of Object.keys(sdk.dependencies)) expect(lock.packages[`node_modules/${name}`], name).toBeDefined();
  });
});
