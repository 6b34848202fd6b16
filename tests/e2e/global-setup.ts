import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";
import { ensureBind, type Bind } from "../../scripts/dns/index.js";
import { ensureEngine, isolatedEnvironment, repoRoot, type Engine } from "../../scripts/engine/index.js";
import { pluginInstallArgs, withoutAmbientPlugin } from "../../scripts/plugin/install.js";
import { packPlugin, type PackedPlugin } from "../../scripts/plugin/pack.js";
import { ensurePython, type PythonRuntime } from "../../scripts/python/index.js";
import { ensureDnsProvider, ensureTerraformTools, packDnsMirror, packTerraformMirror } from "../../scripts/terraform/index.js";
import type { ProvidedTerraform } from "./terraform/harness.js";
import { underCi } from "../support/ci.js";

declare module "vitest" {
  export interface ProvidedContext {
    engine: Engine;
    /** The provider plugin archive, packed once per run as `npm run plugin:pack` packs it. */
    plugin: PackedPlugin;
    /** A `PULUMI_HOME` holding that archive installed; plugin worlds link its plugins (tests/e2e/harness/plugin.ts). */
    pluginHome: string;
    /** BIND 9 for the DNS scenarios (tests/e2e/dns/); null outside CI when it could not be installed (those files then skip). */
    bind: Bind | null;
    /** The Python runtime for Python programs (tests/e2e/plugin/python-*); null outside CI when it could not be provided (those files then skip). */
    python: PythonRuntime | null;
    /** OpenTofu and Terraform with the provider's packed filesystem mirror (tests/e2e/terraform/); tools null outside CI when they could not be had (those files then skip). */
    terraform: ProvidedTerraform;
  }
}

/**
 * Makes sure the engine exists before any e2e file runs: found or cached in a
 * second, built from Go modules on a fresh machine. A missing engine fails the
 * run — under CI and everywhere else — because a skipped e2e suite would claim
 * behaviour nobody checked. BIND 9 is provided the same way for the DNS
 * scenarios (see {@link provideBind}).
 */
export default async function setup(project: TestProject): Promise<() => void> {
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
  const installed = isolatedEnvironment(engine);
  // The README's install step, word for word, once per run: each plugin world
  // gets these files as hard links instead of unpacking the archive again.
  await promisify(execFile)(engine.pulumiPath, [...pluginInstallArgs(plugin), "--non-interactive"], {
    env: { ...process.env, ...installed.env, PATH: withoutAmbientPlugin(installed.env.PATH) },
    maxBuffer: 16 * 1024 * 1024,
  });
  project.provide("pluginHome", installed.homeDir);
  project.provide("bind", await provideBind());
  project.provide("python", await providePython());
  project.provide("terraform", await provideTerraform(plugin));
  return () => installed.dispose();
}

/**
 * The Python runtime for Python programs (scripts/python/): Debian's
 * packages, the language host and a virtualenv with the Pulumi SDK, cached.
 * Under CI (`underCi`: CI set to true, 1 or yes) a missing piece fails the run; elsewhere the Python files
 * skip, saying why.
 */
async function providePython(): Promise<PythonRuntime | null> {
  try {
    const python = await ensurePython({ log: (line) => console.error(`[python] ${line}`) });
    console.error(`[python] Python ${python.pythonVersion}, Pulumi Python SDK ${python.sdkVersion} (${python.source}): ${python.venvDir}`);
    return python;
  } catch (error) {
    if (underCi()) throw error;
    console.error(`[python] ${(error as Error).message}\n[python] the Python programs (tests/e2e/plugin/python-*) will be SKIPPED; under CI this fails the run`);
    return null;
  }
}

/**
 * BIND 9 for the DNS scenarios, installed from Debian's packages when
 * missing (scripts/dns/). Under CI (`underCi`) a server that is still missing
 * fails the run; elsewhere the DNS files skip, saying why.
 */
async function provideBind(): Promise<Bind | null> {
  try {
    const bind = await ensureBind({ log: (line) => console.error(`[bind] ${line}`) });
    console.error(`[bind] BIND ${bind.version} (${bind.source}): ${bind.namedPath}`);
    return bind;
  } catch (error) {
    if (underCi()) throw error;
    console.error(`[bind] ${(error as Error).message}\n[bind] the DNS scenarios (tests/e2e/dns/) will be SKIPPED; under CI this fails the run`);
    return null;
  }
}

/**
 * OpenTofu and Terraform (scripts/terraform/: on PATH at the pinned version,
 * cached, or built from the Go module proxy, about 14 minutes cold), the
 * provider's filesystem mirror unpacked from the plugin archive packed above,
 * and hashicorp/dns's mirror (built from third_party/terraform-provider-dns,
 * about 2 minutes cold). Under CI (`underCi`) a missing CLI or hashicorp/dns
 * fails the run; elsewhere the files needing them skip, saying why.
 */
async function provideTerraform(plugin: PackedPlugin): Promise<ProvidedTerraform> {
  const log = (line: string) => console.error(`[terraform] ${line}`);
  const outDir = path.join(repoRoot, "tmp", "terraform-mirror");
  const mirror = await packTerraformMirror({ outDir, plugin, perContent: true, log });
  const packed = { mirrorDir: mirror.mirrorDir, extraMirrors: [], providerVersion: mirror.version, dnsProviderVersion: null };
  let tools;
  try {
    tools = await ensureTerraformTools({ log });
    for (const tool of Object.values(tools)) log(`${tool.name} ${tool.version} (${tool.source}): ${tool.path}`);
  } catch (error) {
    if (underCi()) throw error;
    log(`${(error as Error).message}\n[terraform] the Terraform files (tests/e2e/terraform/) will be SKIPPED; under CI this fails the run`);
    return { ...packed, tools: null, problem: (error as Error).message.split("\n")[0] };
  }
  try {
    const dns = await ensureDnsProvider({ log });
    const dnsMirror = packDnsMirror(dns, { outDir, perContent: true, log });
    log(`hashicorp/dns ${dns.version} (${dns.source}): ${dnsMirror.mirrorDir}`);
    return { ...packed, tools, extraMirrors: [{ path: dnsMirror.mirrorDir, include: dnsMirror.include }], dnsProviderVersion: dns.version };
  } catch (error) {
    if (underCi()) throw error;
    log(`${(error as Error).message}\n[terraform] the programs using hashicorp/dns will be SKIPPED; under CI this fails the run`);
    return { ...packed, tools, dnsProblem: (error as Error).message.split("\n")[0] };
  }
}
