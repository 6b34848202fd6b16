import * as fs from "node:fs";
import * as path from "node:path";
import type { CacheLayout } from "./paths.js";
import { repoRoot } from "./paths.js";

// The engine starts `pulumi-analyzer-policy-nodejs <engine address> .` in the
// policy pack's folder when no `nodejs` language plugin is discoverable.
// Resolving run-policy-pack from that folder keeps the script independent of
// any one checkout, so it can live in the shared cache.
const POLICY_ANALYZER = `#!/bin/sh
exec node "$(node -p 'require.resolve("@pulumi/pulumi/cmd/run-policy-pack")')" "$@"
`;

/** Writes the analyzer script (only when missing or different) and returns its folder. */
export function writePolicyAnalyzer(layout: CacheLayout): string {
  writeScript(layout.analyzerPath, POLICY_ANALYZER);
  return layout.analyzerDir;
}

/**
 * Puts @pulumi/pulumi's `pulumi-resource-pulumi-nodejs` beside a cached CLI,
 * where official installs bundle it: found there, the CLI stops warning
 * "using pulumi-resource-pulumi-nodejs from $PATH" on every run. The script
 * resolves the dynamic-provider host from the program's folder, so one copy
 * serves every checkout.
 */
export function writeDynamicProviderPlugin(layout: CacheLayout): void {
  const source = path.join(path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [repoRoot] })), DYNAMIC_PROVIDER_PLUGIN);
  writeScript(path.join(layout.binDir, DYNAMIC_PROVIDER_PLUGIN), fs.readFileSync(source, "utf8"));
}

export const DYNAMIC_PROVIDER_PLUGIN = "pulumi-resource-pulumi-nodejs";

/** Atomic write (temporary name, then rename): a reader never sees half a script. */
function writeScript(file: string, content: string): void {
  let current: string | undefined;
  try {
    current = fs.readFileSync(file, "utf8");
  } catch {
    current = undefined;
  }
  if (current === content) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial-${process.pid}`;
  fs.writeFileSync(partial, content, { mode: 0o755 });
  fs.renameSync(partial, file);
}
