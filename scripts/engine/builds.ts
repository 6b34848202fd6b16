import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { goBuild, scratchDir, type Log } from "./go-build.js";
import type { CacheLayout } from "./paths.js";
import { LANGUAGE_HOST_SDK_VERSION, PULUMI_VERSION, YAML_LANGUAGE_HOST_VERSION } from "./version.js";

const execFileAsync = promisify(execFile);

// The recipe of docs/pulumi-dynamic-providers.md ("The engine"). `go install
// pkg@ver` is refused (pkg/go.mod has replace lines), hence a scratch module;
// the clipboard replace mirrors the one in pkg/go.mod.
/**
 * The go.mod of a scratch module built against Pulumi's `pkg/v3` at
 * `version`: the CLI's, and the SDK generator's (scripts/sdkgen).
 *
 * @example
 * pulumiPkgGoMod("example.com/x", "3.259.0", "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi")
 */
export function pulumiPkgGoMod(module: string, version: string, tool?: string): string {
  return `module ${module}

go 1.26.6

require (
	github.com/pulumi/pulumi/pkg/v3 v${version}
	github.com/pulumi/pulumi/sdk/v3 v${version}
)

replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e
${tool ? `\ntool ${tool}\n` : ""}`;
}

const cliGoMod = () => pulumiPkgGoMod("example.com/certreseller-engine-cli", PULUMI_VERSION, "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi");

function languageHostGoMod(): string {
  return `module example.com/certreseller-engine-language-host

go 1.26.6

require github.com/pulumi/pulumi/sdk/v3 v${LANGUAGE_HOST_SDK_VERSION}

tool github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs
`;
}

// pulumi-yaml is its own module; its go.mod has no replace lines, so the
// scratch module needs none either (its pkg/v3 comes from pulumi-yaml's go.mod).
function yamlLanguageHostGoMod(): string {
  return `module example.com/certreseller-engine-yaml-language-host

go 1.26.6

require github.com/pulumi/pulumi-yaml v${YAML_LANGUAGE_HOST_VERSION}

tool github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
`;
}

export function buildCli(layout: CacheLayout, log: Log): Promise<void> {
  return goBuild(
    {
      label: `pulumi CLI v${PULUMI_VERSION}`,
      scratchDir: scratchDir(`cli-v${PULUMI_VERSION}`),
      goMod: cliGoMod(),
      pkg: "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi",
      version: `v${PULUMI_VERSION}`,
      output: layout.pulumiPath,
      expectedDuration: "about 7 min cold on 2 cores, less with a warm Go cache",
      verify: async (binary) => {
        const { stdout } = await execFileAsync(binary, ["version"], { env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } });
        if (stdout.trim() !== `v${PULUMI_VERSION}`) {
          throw new Error(`the fresh CLI reports ${JSON.stringify(stdout.trim())}, expected v${PULUMI_VERSION}`);
        }
      },
    },
    log,
  );
}

export function buildLanguageHost(layout: CacheLayout, log: Log): Promise<void> {
  return goBuild(
    {
      label: `Node language host (SDK v${LANGUAGE_HOST_SDK_VERSION})`,
      scratchDir: scratchDir(`language-host-v${LANGUAGE_HOST_SDK_VERSION}`),
      goMod: languageHostGoMod(),
      pkg: "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs",
      version: `v${LANGUAGE_HOST_SDK_VERSION}`,
      output: layout.languageHostPath,
      expectedDuration: "about 1 min cold",
    },
    log,
  );
}

export function buildYamlLanguageHost(layout: CacheLayout, log: Log): Promise<void> {
  return goBuild(
    {
      label: `YAML language host v${YAML_LANGUAGE_HOST_VERSION}`,
      scratchDir: scratchDir(`yaml-language-host-v${YAML_LANGUAGE_HOST_VERSION}`),
      goMod: yamlLanguageHostGoMod(),
      pkg: "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml",
      version: `v${YAML_LANGUAGE_HOST_VERSION}`,
      output: layout.yamlLanguageHostPath,
      expectedDuration: "about 1 min cold",
    },
    log,
  );
}
