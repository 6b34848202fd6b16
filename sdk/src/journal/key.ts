import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as yaml from "js-yaml";

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

/** The organisation of every stack of a self-managed backend (what `pulumi.getOrganization()` answers there). */
const SELF_MANAGED_ORGANIZATION = "organization";

/**
 * Whether a backend URL names a self-managed backend (`file://`, `s3://`,
 * `gs://`, `azblob://`, `postgres://`, …), whose one organisation is
 * `organization`; an `http(s)://` backend is Pulumi Cloud (or a self-hosted
 * Cloud), where stacks live in organisations.
 */
export function isSelfManagedBackend(url: string): boolean {
  return !/^https?:\/\//i.test(url.trim());
}

/**
 * The backend is Pulumi Cloud and the provider plugin has no organisation:
 * an Order cannot be journaled apart from another organisation's stack of
 * the same name, so it is refused before anything is bought.
 */
export class OrganizationRequiredError extends Error {
  override readonly name = "OrganizationRequiredError";
  constructor(backend: string) {
    super(
      `certreseller: the stack's backend ${normalizeBackendUrl(backend)} keeps stacks in organisations, and the Pulumi engine tells a provider plugin ` +
        "none: set the provider setting `organization` to this stack's organisation, so that the purchase journal keeps this stack's purchases apart " +
        "from another organisation's stack of the same project and name. `pulumi config set certreseller:organization <org>` for the default provider; " +
        "on an explicit provider `organization: ${pulumi.organization}` (YAML), `Organization: pulumi.String(ctx.Organization())` (Go), " +
        "`organization=pulumi.get_organization()` (Python). Nothing was bought.",
    );
  }
}

/**
 * The journal scope of the provider plugin's Orders (the TypeScript class
 * sends {@link programScope} from the program instead): the `organization`
 * setting on Pulumi Cloud, where it is required; `org=organization` on a
 * self-managed backend, whatever the setting says — that backend has no
 * other organisation, and a fixed scope keeps its keys the same as the
 * program's — with a warning when the setting names another.
 *
 * @example
 * pluginJournalScope("acme", "https://api.pulumi.com") // { scope: "org=acme" }
 * pluginJournalScope(undefined, "file:///state")       // { scope: "org=organization" }
 * pluginJournalScope(undefined, "https://api.pulumi.com") // throws OrganizationRequiredError
 */
export function pluginJournalScope(organization: string | undefined, backend: string = backendUrl()): { scope: string; warning?: string } {
  if (!isSelfManagedBackend(backend)) {
    if (!organization) throw new OrganizationRequiredError(backend);
    return { scope: programScope(organization) };
  }
  const scope = programScope(SELF_MANAGED_ORGANIZATION);
  if (!organization || organization === SELF_MANAGED_ORGANIZATION) return { scope };
  return {
    scope,
    warning:
      `certreseller: the provider setting organization is ${JSON.stringify(organization)}, but the stack's backend ${normalizeBackendUrl(backend)} is ` +
      `self-managed, whose only organisation is "${SELF_MANAGED_ORGANIZATION}": the purchase journal keys this stack's Orders under "${SELF_MANAGED_ORGANIZATION}" ` +
      "(the backend already keeps them apart from other backends' stacks). Remove the setting, or check that this stack uses the backend you meant.",
  };
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

/**
 * The key the provider plugin wrote for this resource before its
 * `organization` setting existed (scope `org=organization`, same backend and
 * URN); undefined when that is this identity's own key, or for a resource of
 * an earlier release (no scope). Such an entry may be this stack's purchase or
 * another organisation's stack of the same name.
 *
 * @example
 * unscopedEntryKey({ journalKey: urn, journalScope: "org=acme" }) === journalEntryKey({ journalKey: urn, journalScope: "org=organization" })
 */
export function unscopedEntryKey(identity: JournalIdentity, backend?: string): string | undefined {
  if (!identity.journalScope) return undefined;
  const unscoped = journalEntryKey({ journalKey: identity.journalKey, journalScope: programScope(undefined) }, backend);
  return unscoped === journalEntryKey(identity, backend) ? undefined : unscoped;
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

/** Pulumi Cloud, the CLI's backend when nothing else names one (logged in with `PULUMI_ACCESS_TOKEN` alone, say). */
export const DEFAULT_BACKEND_URL = "https://api.pulumi.com";

/**
 * The backend the CLI uses, resolved as the CLI resolves it:
 * `PULUMI_BACKEND_URL`, else the project's `backend.url` (Pulumi.yaml in
 * the working directory, block or flow style), else the current login in
 * `$PULUMI_HOME/credentials.json` (`~/.pulumi`), else Pulumi Cloud (the
 * CLI's default: a CI runner with only `PULUMI_ACCESS_TOKEN` has no
 * credentials file, and must not read as another backend than the laptop
 * logged in to the same Cloud).
 */
export function backendUrl(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  if (env.PULUMI_BACKEND_URL?.trim()) return env.PULUMI_BACKEND_URL.trim();
  for (const name of ["Pulumi.yaml", "Pulumi.yml"]) {
    let text: string;
    try {
      text = fs.readFileSync(path.join(cwd, name), "utf8");
    } catch {
      continue; // no project file here
    }
    try {
      const url = (yaml.load(text) as { backend?: { url?: unknown } } | undefined)?.backend?.url;
      if (typeof url === "string" && url.trim()) return url.trim();
    } catch {
      // not YAML the CLI could read either: the CLI would fail before starting the provider
    }
    break;
  }
  try {
    const home = env.PULUMI_HOME?.trim() || path.join(os.homedir(), ".pulumi");
    const credentials = JSON.parse(fs.readFileSync(path.join(home, "credentials.json"), "utf8")) as { current?: unknown };
    if (typeof credentials.current === "string" && credentials.current) return credentials.current;
  } catch {
    // not logged in here
  }
  return DEFAULT_BACKEND_URL;
}

/**
 * The backend URL as identity, so that one backend always gives one
 * fingerprint:
 *
 * - scheme and host lower-case, no credentials, no query (backend options
 *   such as `?region=` or `&awssdk=v2` may change without the backend
 *   changing), no trailing slash;
 * - the Pulumi Cloud console address read as its API address;
 * - `file://~` as the home directory (the CLI expands it), and a file path
 *   with `.`/`..` segments and doubled slashes resolved.
 *
 * A symlinked directory still reads as another path: `create` then finds
 * the entry under the other fingerprint (`PurchaseJournal.related`).
 *
 * @example
 * normalizeBackendUrl("file://~/state/") === `file://${os.homedir()}/state`
 */
export function normalizeBackendUrl(url: string, home: string = os.homedir()): string {
  const trimmed = url.trim().replace(/[?#].*$/, "");
  const file = /^file:\/\/(.*)$/i.exec(trimmed);
  if (file) {
    const raw = file[1]!;
    const expanded = raw === "~" || raw.startsWith("~/") ? home + raw.slice(1) : raw;
    return `file://${path.posix.normalize(expanded.replace(/\\/g, "/")).replace(/(.)\/+$/, "$1")}`;
  }
  const match = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/]*@)?([^/]*)(.*)$/i.exec(trimmed);
  if (!match) return trimmed.replace(/\/+$/, "");
  const host = match[2]!.toLowerCase();
  const rest = match[3]!.replace(/\/+$/, "");
  const scheme = match[1]!.toLowerCase();
  if ((scheme === "https" || scheme === "http") && host === "app.pulumi.com") return DEFAULT_BACKEND_URL;
  return `${scheme}://${host}${rest}`;
}

let cached: string | undefined;

/**
 * The backend identity a front end other than Pulumi's sets for its whole
 * process (the Terraform provider: its backend type and identifying
 * configuration, and the workspace; see `terraform/journal-identity.ts`), read
 * by {@link backendFingerprint} instead of Pulumi's backend. Undefined: Pulumi's.
 *
 * @example
 * useBackendIdentity('terraform:s3:{"bucket":"b","key":"k"}'); backendFingerprint() // 16 hex digits of its SHA-256
 */
export function useBackendIdentity(identity: string | undefined): void {
  backendIdentity = identity;
  cached = undefined;
}

let backendIdentity: string | undefined;

/** 16 hex digits of SHA-256 of the normalised backend URL (see {@link normalizeBackendUrl}), or of the identity {@link useBackendIdentity} set; computed once per process. */
export function backendFingerprint(env?: NodeJS.ProcessEnv, cwd?: string): string {
  if (env === undefined && cwd === undefined && backendIdentity !== undefined) return createHash("sha256").update(backendIdentity).digest("hex").slice(0, 16);
  if (env === undefined && cwd === undefined && cached !== undefined) return cached;
  const fingerprint = createHash("sha256").update(normalizeBackendUrl(backendUrl(env, cwd))).digest("hex").slice(0, 16);
  if (env === undefined && cwd === undefined) cached = fingerprint;
  return fingerprint;
}
