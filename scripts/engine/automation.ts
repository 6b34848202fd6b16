import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand, type ConfigMap, type PulumiFn, type Stack } from "@pulumi/pulumi/automation";
import type { IsolatedEnvironment } from "./environment.js";
import { repoRoot } from "./paths.js";

export interface InlineStackOptions {
  environment: IsolatedEnvironment;
  projectName: string;
  stackName: string;
  program: PulumiFn;
  config?: ConfigMap;
}

/**
 * An Automation API stack running `program` inline, in the isolated
 * environment. Its project folder sits under the repository's ignored `tmp/`:
 * the dynamic-provider plugin and the serialized providers resolve
 * `@pulumi/pulumi` and `pulumi-certreseller` from the project folder, so it
 * must see the repository's `node_modules`.
 *
 * @example
 * const stack = await inlineStack({ environment, projectName: "demo", stackName: "dev", program: async () => ({}) });
 * await stack.up();
 */
export async function inlineStack(options: InlineStackOptions): Promise<Stack> {
  const { environment, projectName, stackName, program } = options;
  const workDir = projectDir(environment, projectName);
  const pulumiCommand = await PulumiCommand.get({ root: environment.pulumiRoot });
  const stack = await LocalWorkspace.createOrSelectStack(
    { projectName, stackName, program },
    {
      workDir,
      envVars: environment.env,
      pulumiCommand,
      projectSettings: { name: projectName, runtime: "nodejs" },
    },
  );
  if (options.config) await stack.setAllConfig(options.config);
  return stack;
}

/** `<repo>/tmp/pulumi-projects/<environment>/<project>`: inside the repository (see above), ignored by git, removed with the environment. */
export function projectDir(environment: IsolatedEnvironment, projectName: string): string {
  const dir = path.join(repoRoot, "tmp", "pulumi-projects", path.basename(path.dirname(environment.backendDir)), projectName);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
