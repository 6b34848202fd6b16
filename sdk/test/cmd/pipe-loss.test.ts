// The plugin's stdout and stderr are pipes to the engine; a killed engine
// closes them. A log line written after that must not end the process (it may
// be between CreateOrder's answer and the journal write).
import { spawn } from "node:child_process";
import * as path from "node:path";
import { expect, it } from "vitest";

const entry = path.join(__dirname, "..", "..", "dist", "cmd", "pulumi-resource-certreseller.js");

/** A child that writes a line every 20 ms for 600 ms, then exits 0; its output pipes are closed by the parent after the first line. */
async function exitAfterPipeLoss(survive: boolean): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const script = `
    ${survive ? `require(${JSON.stringify(entry)}).survivePipeLoss();` : ""}
    const timer = setInterval(() => { process.stdout.write("log line\\n"); process.stderr.write("log line\\n"); }, 20);
    setTimeout(() => { clearInterval(timer); process.exit(0); }, 600);`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "pipe"] });
  await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  child.stdout.destroy();
  child.stderr.destroy();
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
}

it("a write after the engine closed the pipes does not end the plugin", async () => {
  expect(await exitAfterPipeLoss(true)).toEqual({ code: 0, signal: null });
});

it("without it, the same writes end the process (what the plugin used to do)", async () => {
  expect(await exitAfterPipeLoss(false)).not.toEqual({ code: 0, signal: null });
});
