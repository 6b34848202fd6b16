import * as fs from "node:fs";
import * as path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureEngine, repoRoot, type Engine } from "../../scripts/engine/index.js";
import { packPlugin, type PackedPlugin } from "../../scripts/plugin/pack.js";

declare module "vitest" {
  export interface ProvidedContext {
    engine: Engine;
    /** The provider plugin archive, packed once per run as `npm run plugin:pack` packs it. */
    plugin: PackedPlugin;
  }
}

/**
 * Makes sure the engine exists before any e2e file runs: found or cached in a
 * second, built from Go modules on a fresh machine. A missing engine fails the
 * run — under CI and everywhere else — because a skipped e2e suite would claim
 * behaviour nobody checked.
 */
export default async function setup(project: TestProject): Promise<void> {
  for (const built of ["sdk/dist/index.js", "sandbox/dist/index.js"]) {
    if (!fs.existsSync(path.join(repoRoot, built))) {
      throw new Error(`e2e needs the built packages: ${built} is missing; run \`npm run build\` (npm test does)`);
    }
  }
  const engine = await ensureEngine({ log: (line) => console.error(`[engine] ${line}`) });
  console.error(`[engine] pulumi v${engine.version} (${engine.source}): ${engine.pulumiPath}`);
  project.provide("engine", engine);
  const plugin = await packPlugin({ outDir: path.join(repoRoot, "tmp", "plugin-archive"), log: (line) => console.error(`[plugin] ${line}`) });
  project.provide("plugin", plugin);
}
