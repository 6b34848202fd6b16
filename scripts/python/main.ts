// `npm run python`: make the Python runtime for Pulumi programs available and
// say what each step did and how long it took, then what the virtualenv holds
// (`pip freeze`). Progress goes to stderr; the summary to stdout.
import { elapsed } from "../engine/go-build.js";
import { ensurePython, pipFreeze, PythonUnavailableError } from "./provision.js";

async function main(): Promise<void> {
  const started = Date.now();
  const python = await ensurePython({ log: (line) => console.error(`[python] ${line}`) });
  console.log(`Python ${python.pythonVersion}, Pulumi Python SDK ${python.sdkVersion} (${python.source === "cache" ? "cached" : "built now"})`);
  console.log(`  interpreter:   ${python.python}`);
  console.log(`  virtualenv:    ${python.venvDir}`);
  console.log(`  language host: ${python.languageHostDir}`);
  for (const step of python.steps) console.log(`  ${step.step}: ${step.did} (${step.ms} ms)`);
  console.log(`  ready in ${elapsed(started)} (${Date.now() - started} ms)`);
  console.log(`  pip freeze: ${(await pipFreeze(python.venvDir)).join(" ")}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof PythonUnavailableError ? `[python] ${error.message}` : error);
  process.exitCode = 1;
});
