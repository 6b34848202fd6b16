import * as fs from "node:fs";
import type { CacheLayout } from "./paths.js";

// The engine starts `pulumi-analyzer-policy-nodejs <engine address> .` in the
// policy pack's folder when no `nodejs` language plugin is discoverable.
// Resolving run-policy-pack from that folder keeps the script independent of
// any one checkout, so it can live in the shared cache.
const SCRIPT = `#!/bin/sh
exec node "$(node -p 'require.resolve("@pulumi/pulumi/cmd/run-policy-pack")')" "$@"
`;

/** Writes the analyzer script (atomically, only when missing or different) and returns its folder. */
export function writePolicyAnalyzer(layout: CacheLayout): string {
  let current: string | undefined;
  try {
    current = fs.readFileSync(layout.analyzerPath, "utf8");
  } catch {
    current = undefined;
  }
  if (current !== SCRIPT) {
    fs.mkdirSync(layout.analyzerDir, { recursive: true });
    const partial = `${layout.analyzerPath}.partial-${process.pid}`;
    fs.writeFileSync(partial, SCRIPT, { mode: 0o755 });
    fs.renameSync(partial, layout.analyzerPath);
  }
  return layout.analyzerDir;
}
