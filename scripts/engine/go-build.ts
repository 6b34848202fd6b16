import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { isAlive } from "./system.js";
import { findOnPath } from "./which.js";

/** One Go program to build into the cache from the Go module proxy. */
export interface GoBuildSpec {
  /** Shown in progress lines: "pulumi CLI v3.259.0". */
  label: string;
  /** Scratch module folder, outside the repository (kept between attempts so go.sum is reused). */
  scratchDir: string;
  goMod: string;
  /**
   * The module's own source files beside go.mod (name → content), for a
   * program kept in the repository; written before the build, and any other
   * `.go` file at the module root is removed, so a source file deleted from
   * the repository cannot linger into the next build.
   */
  files?: Record<string, string>;
  /** The `main` package to build. */
  pkg: string;
  /** Stamped with `-X .../version.Version=`: the Automation API refuses an unversioned CLI. */
  version: string;
  /** Final path; the build writes a temporary sibling and renames it, so an interrupted build leaves nothing half-written here. */
  output: string;
  /** Shown when the build starts: "about 7 min cold on 2 cores". */
  expectedDuration: string;
  /** Optional check of the fresh binary before it is installed. */
  verify?: (binary: string) => Promise<void>;
}

export type Log = (line: string) => void;

export function goBinary(): string | undefined {
  return findOnPath("go");
}

/** Scratch folders live in the OS temp dir: never inside the repository. */
export function scratchDir(name: string): string {
  return path.join(os.tmpdir(), `certreseller-engine-${name}`);
}

/**
 * Builds `spec.pkg` with `go mod tidy` then `go build`, printing a progress line
 * every 20 s with the elapsed time, and installs the binary atomically.
 *
 * @example
 * await goBuild({ label: "pulumi CLI", scratchDir: scratchDir("cli"), goMod, pkg, version: "v3.259.0", output }, console.error);
 */
export async function goBuild(spec: GoBuildSpec, log: Log): Promise<void> {
  const go = goBinary();
  if (!go) throw new Error(`cannot build ${spec.label}: no \`go\` on PATH`);
  // Parallel test files may ask for the same build at once: one builds in the scratch module, the others wait for it.
  const before = fileIdentity(spec.output);
  const { waited, release } = await lockScratch(spec, log);
  try {
    if (waited && fs.existsSync(spec.output) && fileIdentity(spec.output) !== before) {
      log(`${spec.label}: built meanwhile by another run: ${spec.output}`);
      return;
    }
    await buildLocked(go, spec, log);
  } finally {
    release();
  }
}

async function buildLocked(go: string, spec: GoBuildSpec, log: Log): Promise<void> {
  const started = Date.now();
  fs.mkdirSync(spec.scratchDir, { recursive: true });
  const goModPath = path.join(spec.scratchDir, "go.mod");
  if (!fs.existsSync(goModPath) || fs.readFileSync(goModPath, "utf8") !== spec.goMod) {
    fs.writeFileSync(goModPath, spec.goMod);
  }
  if (spec.files) writeModuleFiles(spec.scratchDir, spec.files);
  fs.mkdirSync(path.dirname(spec.output), { recursive: true });
  removeStalePartials(spec.output);
  const partial = `${spec.output}.partial-${process.pid}`;
  const env = { ...process.env, CGO_ENABLED: "0" };
  try {
    log(`building ${spec.label} from Go modules in ${spec.scratchDir} (${spec.expectedDuration})`);
    await runGo(go, ["mod", "tidy"], spec.scratchDir, env, started, `${spec.label}: resolving and downloading modules`, log);
    const ldflags = `-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=${spec.version}`;
    await runGo(
      go,
      ["build", "-trimpath", "-tags", "osusergo,grpcnotrace", "-ldflags", ldflags, "-o", partial, spec.pkg],
      spec.scratchDir,
      env,
      started,
      `${spec.label}: compiling`,
      log,
    );
    await spec.verify?.(partial);
    fs.renameSync(partial, spec.output);
    log(`built ${spec.label} in ${elapsed(started)}: ${spec.output}`);
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

function writeModuleFiles(dir: string, files: Record<string, string>): void {
  for (const name of fs.readdirSync(dir)) {
    if (name.endsWith(".go") && !(name in files)) fs.rmSync(path.join(dir, name), { force: true });
  }
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
}

export function runGo(
  go: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  started: number,
  phase: string,
  log: Log,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(go, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let downloads = 0;
    const tail: string[] = [];
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (!line) continue;
        if (line.startsWith("go: downloading ")) downloads++;
        tail.push(line);
        if (tail.length > 30) tail.shift();
      }
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    log(`${phase} ...`);
    const heartbeat = setInterval(() => {
      log(`${phase} ... ${elapsed(started)} elapsed${downloads ? `, ${downloads} modules downloaded` : ""}`);
    }, 20_000);
    child.on("error", (error) => {
      clearInterval(heartbeat);
      reject(new Error(`could not run go ${args[0]}: ${error.message}`, { cause: error }));
    });
    child.on("close", (code, signal) => {
      clearInterval(heartbeat);
      if (code === 0) return resolve();
      reject(new Error(`go ${args[0]} failed (${signal ?? `exit ${code}`}) in ${cwd}:\n${tail.join("\n")}`));
    });
  });
}

function fileIdentity(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return "absent";
  }
}

/**
 * `<scratch>.lock`, holding the builder's pid: taken with an exclusive create,
 * waited on while its process lives, removed when that process is gone.
 */
export async function lockScratch(spec: Pick<GoBuildSpec, "label" | "scratchDir">, log: Log): Promise<{ waited: boolean; release: () => void }> {
  const lockPath = `${spec.scratchDir}.lock`;
  const started = Date.now();
  let waited = false;
  let lastLog = 0;
  for (;;) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: "wx" });
      return { waited, release: () => fs.rmSync(lockPath, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let holder = Number.NaN;
    let age = 0;
    try {
      holder = Number(fs.readFileSync(lockPath, "utf8").trim());
      age = Date.now() - fs.statSync(lockPath).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    // An empty file is a holder between its create and its write; one that stays empty was left by a killed run.
    if ((holder > 0 && !isAlive(holder)) || (!(holder > 0) && age > 10_000)) {
      fs.rmSync(lockPath, { force: true });
      continue;
    }
    waited = true;
    if (Date.now() - lastLog >= 20_000) {
      lastLog = Date.now();
      log(`${spec.label}: another run (pid ${holder}) is building in ${spec.scratchDir}; waiting (${elapsed(started)})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Partials of builds whose process is gone (killed mid-build). */
export function removeStalePartials(output: string): void {
  const dir = path.dirname(output);
  const prefix = `${path.basename(output)}.partial-`;
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (!isAlive(pid)) fs.rmSync(path.join(dir, name), { force: true });
  }
}

export function elapsed(since: number): string {
  const seconds = Math.round((Date.now() - since) / 1000);
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s` : `${seconds}s`;
}
