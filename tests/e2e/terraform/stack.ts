/**
 * The sandbox-backed setup the Terraform e2e files share: one sandbox per
 * `describe`, and a world whose provider talks to it and keeps its purchase
 * journal beside the program's folder.
 */
import * as path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startTestSandbox, type TestSandbox } from "../harness/sandbox.js";
import { createTerraformWorld, type TerraformToolName, type TerraformWorld } from "./harness.js";

/** What `providedTerraform()` returns once the tools are there. */
type Provided = Parameters<typeof createTerraformWorld>[0];

/**
 * Starts a sandbox before the calling `describe`'s tests and stops it after
 * them; the getter returns it once started.
 *
 * @example
 * const sandbox = useSandbox();
 * it("...", async () => { await sandbox().management.orders(); });
 */
export function useSandbox(): () => TestSandbox {
  let sandbox: TestSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(async () => {
    await sandbox?.stop();
  });
  return () => {
    if (!sandbox) throw new Error("the sandbox is not started: call it inside a hook or test");
    return sandbox;
  };
}

export interface SandboxWorld extends TerraformWorld {
  /** The provider's purchase journal (`CERTRESELLER_JOURNAL_DIR`), beside the program's folder. */
  journalDir: string;
}

/**
 * A world for `name` holding `files` whose provider uses `sandbox`'s URL and
 * funded key, and a journal of its own.
 *
 * @example
 * const world = sandboxWorld(terraform!, name, sandbox, { "main.tf": siteProgram(terraform!.providerVersion) });
 */
export function sandboxWorld(
  provided: Provided,
  name: TerraformToolName,
  sandbox: TestSandbox,
  files: Record<string, string> = {},
  journalDir?: string,
): SandboxWorld {
  const world = createTerraformWorld(provided, name, files);
  const journal = journalDir ?? path.join(path.dirname(world.dir), "journal");
  Object.assign(world.env, { CERTRESELLER_API_KEY: sandbox.apiKey, CERTRESELLER_BASE_URL: sandbox.url, CERTRESELLER_JOURNAL_DIR: journal });
  return Object.assign(world, { journalDir: journal });
}
