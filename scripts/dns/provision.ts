import { spawn } from "node:child_process";
import * as path from "node:path";
import type { Log } from "../engine/go-build.js";
import { aptGetCommand, aptGetInstall } from "../engine/system.js";
import { findOnPath } from "../engine/which.js";

export type { Log };

/** Where `named` came from: already on the machine, or installed now from Debian's packages. */
export type BindSource = "path" | "system" | "installed";

/** A usable BIND 9 on this machine. */
export interface Bind {
  source: BindSource;
  /** `/usr/sbin/named` */
  namedPath: string;
  /** `9.18.49-1~deb12u3-Debian`, the second word of `named -v`. */
  version: string;
}

export interface EnsureBindOptions {
  /** Install Debian's `bind9` with apt-get when no `named` is found (default true). */
  install?: boolean;
  log?: Log;
  /** Environment to read `PATH` and `CI` from (tests). */
  env?: NodeJS.ProcessEnv;
}

/** No `named` found and none could be installed. The message says how to install one. */
export class BindUnavailableError extends Error {
  override name = "BindUnavailableError";
}

/** The Debian packages: the server, and the tools that check its configuration (named-checkconf). */
export const BIND_PACKAGES = ["bind9", "bind9-utils"] as const;

export const BIND_INSTALL_INSTRUCTIONS = [
  `Install BIND 9: \`apt-get update && apt-get install -y --no-install-recommends ${BIND_PACKAGES.join(" ")}\` (as root),`,
  "or put a `named` on PATH. The DNS scenarios of the e2e suite run an authoritative server of their own with it.",
].join("\n");

// Debian installs named outside a normal user's PATH.
const WELL_KNOWN_DIRS = ["/usr/sbin", "/usr/local/sbin"];

/** `named` on PATH, else at the places Debian and a source build put it. */
export function findNamed(env: NodeJS.ProcessEnv = process.env): { path: string; source: "path" | "system" } | undefined {
  const onPath = findOnPath("named", env.PATH ?? "");
  if (onPath) return { path: onPath, source: "path" };
  const system = findOnPath("named", WELL_KNOWN_DIRS.join(path.delimiter));
  return system ? { path: system, source: "system" } : undefined;
}

/**
 * Makes BIND 9 available for the e2e suite, the way `ensureEngine` makes the
 * Pulumi CLI available: a `named` on PATH or in `/usr/sbin`, else Debian's
 * `bind9` and `bind9-utils` installed with apt-get (as root, or through
 * `sudo -n`), printing each command and how long it took. Throws
 * {@link BindUnavailableError} when there is still no `named`; the e2e global
 * setup lets that fail the run under `CI=true`.
 *
 * @example
 * const bind = await ensureBind({ log: (l) => console.error(`[bind] ${l}`) });
 * console.log(bind.namedPath, bind.version); // /usr/sbin/named 9.18.49-1~deb12u3-Debian
 */
export async function ensureBind(options: EnsureBindOptions = {}): Promise<Bind> {
  const log = options.log ?? (() => {});
  const env = options.env ?? process.env;
  const found = findNamed(env);
  if (found) return { source: found.source, namedPath: found.path, version: await namedVersion(found.path) };

  if (options.install === false) throw new BindUnavailableError(`No BIND 9: no \`named\` on PATH or in ${WELL_KNOWN_DIRS.join(", ")} (installing was not allowed).\n${BIND_INSTALL_INSTRUCTIONS}`);
  const aptGet = aptGetCommand(env);
  if ("problem" in aptGet) {
    throw new BindUnavailableError(
      aptGet.problem === "no apt-get"
        ? `No BIND 9: no \`named\` on PATH or in ${WELL_KNOWN_DIRS.join(", ")}, and no apt-get to install it.\n${BIND_INSTALL_INSTRUCTIONS}`
        : `No BIND 9, and installing it needs root: this process is not root and has no \`sudo\`.\n${BIND_INSTALL_INSTRUCTIONS}`,
    );
  }

  const started = Date.now();
  try {
    await aptGetInstall(aptGet.argv, BIND_PACKAGES, env, log);
  } catch (cause) {
    throw new BindUnavailableError(`Installing BIND 9 failed: ${(cause as Error).message}\n${BIND_INSTALL_INSTRUCTIONS}`, { cause });
  }
  const installed = findNamed(env);
  if (!installed) throw new BindUnavailableError(`apt-get installed ${BIND_PACKAGES.join(" ")} but there is still no \`named\`.\n${BIND_INSTALL_INSTRUCTIONS}`);
  // Debian's package starts a system-wide named on port 53; the tests run their own on free ports and never talk to it.
  log(`BIND 9 installed in ${((Date.now() - started) / 1000).toFixed(1)} s: ${installed.path}`);
  return { source: "installed", namedPath: installed.path, version: await namedVersion(installed.path) };
}

async function namedVersion(namedPath: string): Promise<string> {
  const out = await capture([namedPath, "-v"]);
  // `BIND 9.18.49-1~deb12u3-Debian (Extended Support Version) <id:>`: the version is the second word.
  return out.trim().split(/\s+/)[1] ?? out.trim();
}

function capture(argv: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(output) : reject(new Error(`\`${argv.join(" ")}\` exited with ${code}: ${output.trim()}`))));
  });
}
