/**
 * The Node.js version check every entry runs before anything else: the
 * package's main entry (a TypeScript program's `import`), the provider entry
 * (`pulumi-certreseller/provider`, which the dynamic-provider host loads) and
 * the bins (`sdk/bin/`, the plugin among them). An older Node fails later
 * inside undici with a TypeError that names neither Node nor the fix.
 *
 * The minimum is the package's `engines.node`, read from sdk/package.json,
 * so it is declared once. Plain code with no dependency: it must run on the
 * old Node it refuses, before any module that needs a newer one is loaded.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

type Version = [number, number, number];

function parse(text: string): Version | undefined {
  const match = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : undefined;
}

function below(version: Version, minimum: Version): boolean {
  for (let i = 0; i < 3; i++) if (version[i] !== minimum[i]) return version[i]! < minimum[i]!;
  return false;
}

/** `engines.node` of sdk/package.json (`>=22.19`): this file runs as dist/node-version.js. */
function declaredMinimum(): { text: string; version: Version } | undefined {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8")) as { engines?: { node?: string } };
    const text = manifest.engines?.node ?? "";
    const version = /^>=\s*\d/.test(text) ? parse(text) : undefined;
    return version ? { text: text.replace(/^>=\s*/, ""), version } : undefined;
  } catch {
    return undefined; // no readable manifest: nothing to compare with, so nothing refused
  }
}

/** A later `node` on PATH that is new enough: the folder to put first. Only run when refusing. */
function newerNodeOnPath(minimum: Version, env: NodeJS.ProcessEnv): string | undefined {
  const running = fs.realpathSync(process.execPath);
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir || ".", "node");
    try {
      if (fs.realpathSync(candidate) === running) continue;
    } catch {
      continue;
    }
    const answer = spawnSync(candidate, ["-p", "process.versions.node"], { encoding: "utf8", timeout: 5_000 });
    const version = answer.status === 0 ? parse(answer.stdout) : undefined;
    if (version && !below(version, minimum)) return path.resolve(dir || ".");
  }
  return undefined;
}

/**
 * What is wrong with the Node running this process, or undefined when it is
 * recent enough: which Node runs (version and path), which is needed, and
 * how to put one first on PATH (`pulumi` starts programs, the provider host
 * and plugins with the first `node` on PATH).
 *
 * @example
 * nodeVersionProblem("20.20.2") // "pulumi-certreseller needs Node.js 22.19 or later; this is Node.js v20.20.2 (/usr/bin/node). …"
 */
export function nodeVersionProblem(running: string = process.versions.node, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const minimum = declaredMinimum();
  const version = parse(running);
  if (!minimum || !version || !below(version, minimum.version)) return undefined;
  const newer = newerNodeOnPath(minimum.version, env);
  const folder = newer ?? `<the folder of a node ${minimum.text} or later>`;
  return [
    `pulumi-certreseller needs Node.js ${minimum.text} or later (engines in its package.json); this is Node.js v${running} (${process.execPath}).`,
    `Pulumi runs programs, the dynamic-provider host and plugins with the first \`node\` on PATH. ` +
      (newer ? `A newer one is later on PATH, in ${newer}: put it first, then run the command again:` : `Install Node.js ${minimum.text} or later and put its folder first, then run the command again:`),
    `  export PATH="${folder}:$PATH"`,
    `(\`command -v node\` and \`node --version\` show which one runs.)`,
  ].join("\n");
}

/**
 * Throws {@link nodeVersionProblem}'s message when Node is too old: loading
 * this module is the check (an entry imports it first).
 */
export function assertNodeVersion(): void {
  const problem = nodeVersionProblem();
  if (problem === undefined) return;
  const error = new Error(problem);
  // The message is the whole story: one frame naming this check, not Node's loader frames below it.
  error.stack = `Error: ${problem}\n    at the Node.js version check (${__filename})`;
  throw error;
}

assertNodeVersion();
