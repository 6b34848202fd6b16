import type { TestProject } from "vitest/node";
import { ensureCloudflarePlugin, type CloudflarePlugin } from "../../../scripts/cloudflare/plugin.js";
import { ensureEngine } from "../../../scripts/engine/index.js";
import { underCi } from "../../support/ci.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The Pulumi Cloudflare provider plugin (tests/e2e/cloudflare/); null outside CI when it is not available (those files then skip). */
    cloudflarePlugin: CloudflarePlugin | null;
  }
}

/**
 * The Cloudflare provider plugin for tests/e2e/cloudflare/ (scripts/cloudflare/),
 * after the main setup made the engine available. Under CI (`underCi`) a missing
 * plugin fails the run; elsewhere those files skip, saying why.
 */
export default async function setup(project: TestProject): Promise<void> {
  try {
    const engine = await ensureEngine({ build: false, languageHost: false, yamlHost: false });
    project.provide("cloudflarePlugin", await ensureCloudflarePlugin({ pulumiPath: engine.pulumiPath, log: (line) => console.error(`[cloudflare] ${line}`) }));
  } catch (error) {
    if (underCi()) throw error;
    console.error(`[cloudflare] ${(error as Error).message}\n[cloudflare] the Cloudflare scenarios (tests/e2e/cloudflare/) will be SKIPPED; under CI this fails the run`);
    project.provide("cloudflarePlugin", null);
  }
}
