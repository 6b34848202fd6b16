import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/**
 * Which stack a journal entry belongs to, beyond the URN (which holds only
 * project, stack, type and name). Two backends, or two Pulumi Cloud
 * organisations, may each hold a stack `acme/dev`: their Orders must not
 * share an entry, or one would adopt the other's order.
 *
 * - The organisation comes from the program (`pulumi.getOrganization()`,
 *   which the engine passes to the program with every run); the Order class
 *   sends it as the internal input `journalScope`.
 * - The backend is read by the provider (see {@link backendUrl}): the engine
 *   passes no backend to the program, and an Automation API inline program
 *   runs inside the caller's process, whose environment is not the one the
 *   workspace gives the CLI. The provider plugin is started by the CLI with
 *   the CLI's own environment and the project folder as working directory.
 *
 * Neither is an Order input that is compared: a changed scope shows no diff.
 */
export interface JournalIdentity {
  /** The resource's URN. */
  journalKey: string;
  /** `org=<organisation>` from the program; absent in state written by an earlier release. */
  journalScope?: string;
}

/** The scope the Order class sends (program side). */
export function programScope(organization: string | undefined): string {
  return `org=${organization || "organization"}`;
}

/**
 * The journal key of a resource: its URN alone for resources created by an
 * earlier release (their entries were written under it), else scope, backend
 * fingerprint and URN.
 *
 * @example
 * journalEntryKey({ journalKey: urn, journalScope: "org=acme" }, "3f2a...") === `org=acme;backend=3f2a...;${urn}`
 */
export function journalEntryKey(identity: JournalIdentity, backend: string = backendFingerprint()): string {
  if (!identity.journalScope) return identity.journalKey;
  return `${identity.journalScope};backend=${backend};${identity.journalKey}`;
}

/** The parts of a key written by {@link journalEntryKey}. */
export function parseEntryKey(key: string): { organization?: string; backend?: string; urn: string } {
  const match = /^org=([^;]*);backend=([^;]*);(urn:pulumi:.*)$/.exec(key);
  return match ? { organization: match[1], backend: match[2], urn: match[3]! } : { urn: key };
}

/** `urn:pulumi:<stack>::<project>::...` → project and stack; undefined for other keys. */
export function stackOfUrn(urn: string): { project: string; stack: string } | undefined {
  const match = /^urn:pulumi:([^:]+)::([^:]+)::/.exec(urn);
  return match ? { stack: match[1]!, project: match[2]! } : undefined;
}

/**
 * The backend the CLI uses, resolved as the CLI resolves it:
 * `PULUMI_BACKEND_URL`, else the project's `backend.url` (Pulumi.yaml in
 * the working directory), else the current login in
 * `$PULUMI_HOME/credentials.json` (`~/.pulumi`). Undefined when none is
 * found.
 */
export function backendUrl(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string | undefined {
  if (env.PULUMI_BACKEND_URL?.trim()) return env.PULUMI_BACKEND_URL.trim();
  for (const name of ["Pulumi.yaml", "Pulumi.yml"]) {
    try {
      const text = fs.readFileSync(path.join(cwd, name), "utf8");
      const url = /^backend:\s*\n(?:[ \t]+#.*\n)*[ \t]+url:\s*["']?([^"'\s#]+)/m.exec(text)?.[1];
      if (url) return url;
    } catch {
      // no project file here
    }
  }
  try {
    const home = env.PULUMI_HOME?.trim() || path.join(os.homedir(), ".pulumi");
    const credentials = JSON.parse(fs.readFileSync(path.join(home, "credentials.json"), "utf8")) as { current?: unknown };
    if (typeof credentials.current === "string" && credentials.current) return credentials.current;
  } catch {
    // not logged in here
  }
  return undefined;
}

/**
 * The backend URL as identity: scheme and host lower-case, no credentials,
 * no query (backend options such as `?region=` or `&awssdk=v2` may change
 * without the backend changing), no trailing slash; the Pulumi Cloud console
 * address read as its API address.
 */
export function normalizeBackendUrl(url: string): string {
  const trimmed = url.trim().replace(/[?#].*$/, "");
  const match = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/]*@)?([^/]*)(.*)$/i.exec(trimmed);
  if (!match) return trimmed.replace(/\/+$/, "");
  const host = match[2]!.toLowerCase();
  const rest = match[3]!.replace(/\/+$/, "");
  const scheme = match[1]!.toLowerCase();
  if ((scheme === "https" || scheme === "http") && host === "app.pulumi.com") return "https://api.pulumi.com";
  return `${scheme}://${host}${rest}`;
}

let cached: string | undefined;

/** 16 hex digits of SHA-256 of the normalised backend URL (`none` when none was found); computed once per process. */
export function backendFingerprint(env?: NodeJS.ProcessEnv, cwd?: string): string {
  if (env === undefined && cwd === undefined && cached !== undefined) return cached;
  const url = backendUrl(env, cwd);
  const fingerprint = url ? createHash("sha256").update(normalizeBackendUrl(url)).digest("hex").slice(0, 16) : "none";
  if (env === undefined && cwd === undefined) cached = fingerprint;
  return fingerprint;
}
