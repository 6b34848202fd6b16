// Runs one `up` of an e2e stack in a process of its own, so a test can kill
// the engine mid-operation. Argument: a JSON ChildUpSpec. Prints one JSON line
// per engine event on stdout.
import { inlineStack, type IsolatedEnvironment } from "../../../scripts/engine/index.js";
import { PROGRAMS, type ProgramName } from "../programs.js";

export interface ChildUpSpec {
  environment: Omit<IsolatedEnvironment, "dispose">;
  projectName: string;
  stackName: string;
  config: Record<string, { value: string; secret?: boolean }>;
  program: ProgramName;
  args: unknown;
  /** URNs to replace (`pulumi up --replace`). */
  replace?: string[];
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2]!) as ChildUpSpec;
  const stack = await inlineStack({
    environment: { ...spec.environment, dispose: () => {} },
    projectName: spec.projectName,
    stackName: spec.stackName,
    program: (PROGRAMS[spec.program] as (args: unknown) => () => Promise<unknown>)(spec.args) as never,
    config: spec.config,
  });
  await stack.up({ replace: spec.replace, onEvent: (event) => process.stdout.write(`${JSON.stringify(event)}\n`) });
  process.stdout.write(`${JSON.stringify({ done: true })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
