/**
 * Which purchase journal the journal command reads, and why: the one the
 * stack in this folder uses, as its Orders do, unless the environment names
 * one. Read from the project's files and the CLI's workspace settings, so
 * neither `pulumi` nor a login is needed.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as yaml from "js-yaml";
import { backendUrl } from "../journal/key.js";
import { defaultJournalDir } from "../provider/config.js";

export interface JournalLocation {
  journalDir: string;
  journalUrl?: string;
  /** No setting names the journal: it is beside the state of {@link JournalLocation.backend} when that is a bucket, else the default folder. */
  journalDirDefaulted?: boolean;
  /** The stack's backend as the CLI finds it from the project's folder (for the journal beside the state). */
  backend?: string;
  /** Said on the command's first line: where the location came from. */
  source: string;
  /** Anything else the reader should know (a stack config the environment overrides, a stack that could not be told). */
  notes: string[];
}

/** A Pulumi project found from a folder: its file, name and where its stacks' config files are. */
interface Project {
  file: string;
  name: string;
  stackConfigDir: string;
  config: Record<string, unknown>;
  backendUrl?: string;
}

/** The journal settings a stack's config gives, and which file and key gave each. */
interface StackJournal {
  stack: string;
  url?: { value: string; from: string };
  dir?: { value: string; from: string };
  /** Keys set as secrets, which this command cannot decrypt. */
  secret: string[];
}

const URL_KEY = "certreseller:journalUrl";
const DIR_KEY = "certreseller:journalDir";

/**
 * The journal the command reads: `CERTRESELLER_JOURNAL_URL` /
 * `CERTRESELLER_JOURNAL_DIR` when set (the provider's printed commands give
 * the location this way, so they reach it from any folder); else the stack
 * config of the selected stack (or `stack`) of the project in `cwd` or a
 * parent, `journalUrl` before `journalDir` as the provider reads them, then
 * the project's config defaults in Pulumi.yaml; else the default folder.
 *
 * @example
 * journalLocation(process.env, process.cwd(), "dev").source // "stack dev's config, certreseller:journalDir in Pulumi.dev.yaml"
 */
export function journalLocation(env: NodeJS.ProcessEnv, cwd: string, stack?: string): JournalLocation {
  const notes: string[] = [];
  const project = findProject(env, cwd);
  let stackJournal: StackJournal | undefined;
  if (!project && stack) notes.push(`--stack ${stack} is ignored: no Pulumi.yaml in ${cwd} or its parents`);
  if (project) {
    const selected = stack ? { stack } : selectedStack(project, env);
    if (selected.stack) stackJournal = readStackJournal(project, selected.stack, cwd);
    else notes.push(`no stack of project ${project.name} (${project.file}) is selected here${selected.why ? ` (${selected.why})` : ""}: give --stack <name> to read its journal setting`);
  }
  const envUrl = env.CERTRESELLER_JOURNAL_URL || undefined;
  const envDir = env.CERTRESELLER_JOURNAL_DIR || undefined;
  if (envUrl || envDir) {
    const variable = envUrl ? "CERTRESELLER_JOURNAL_URL" : "CERTRESELLER_JOURNAL_DIR";
    const stackSays = stackJournal?.url ?? stackJournal?.dir;
    if (stackSays && stackSays.value !== (envUrl ?? envDir)) {
      notes.push(`stack ${stackJournal!.stack} uses ${stackSays.value} (${stackSays.from}); unset ${variable} to read that journal`);
    }
    return { journalDir: envDir ?? defaultJournalDir(), ...(envUrl ? { journalUrl: envUrl } : {}), source: `environment variable ${variable}`, notes };
  }
  if (stackJournal) {
    for (const key of stackJournal.secret) notes.push(`stack ${stackJournal.stack} sets ${key} as a secret, which this command cannot read: give it in the environment instead`);
    const chosen = stackJournal.url ?? stackJournal.dir;
    if (chosen) {
      return {
        journalDir: stackJournal.dir?.value ?? defaultJournalDir(),
        ...(stackJournal.url ? { journalUrl: stackJournal.url.value } : {}),
        source: `stack ${stackJournal.stack}'s config, ${chosen.from}`,
        notes,
      };
    }
    return {
      journalDir: defaultJournalDir(),
      journalDirDefaulted: true,
      backend: backendUrl(env, path.dirname(project!.file)),
      source: `the default, as stack ${stackJournal.stack} sets neither ${URL_KEY} nor ${DIR_KEY} and no CERTRESELLER_JOURNAL_* variable is set`,
      notes,
    };
  }
  const why = project ? "no stack is selected" : "no Pulumi.yaml is in this folder or its parents";
  return {
    journalDir: defaultJournalDir(),
    journalDirDefaulted: true,
    backend: backendUrl(env, project ? path.dirname(project.file) : cwd),
    source: `the default, as no CERTRESELLER_JOURNAL_* variable is set and ${why}`,
    notes,
  };
}

/** Pulumi.yaml (or .yml) in `cwd` or the nearest parent, as the CLI finds it; undefined when there is none or it cannot be read. */
function findProject(env: NodeJS.ProcessEnv, cwd: string): Project | undefined {
  // The CLI names the project by the path it walked from its working directory, which keeps the
  // symlinks of the shell's $PWD: start there when it is this folder, so the workspace file matches.
  const start = env.PWD && sameDir(env.PWD, cwd) ? env.PWD : cwd;
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    for (const name of ["Pulumi.yaml", "Pulumi.yml"]) {
      const file = path.join(dir, name);
      if (!fs.existsSync(file)) continue;
      const doc = readYaml(file);
      if (!doc || typeof doc.name !== "string") return undefined;
      const backend = doc.backend as { url?: unknown } | undefined;
      return {
        file,
        name: doc.name,
        stackConfigDir: path.resolve(dir, typeof doc.stackConfigDir === "string" ? doc.stackConfigDir : "."),
        config: isRecord(doc.config) ? doc.config : {},
        ...(typeof backend?.url === "string" ? { backendUrl: backend.url } : {}),
      };
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The stack `pulumi stack select` chose for the project, from the CLI's
 * workspace settings (`$PULUMI_HOME/workspaces/<project>-<sha1 of
 * Pulumi.yaml's path>-workspace.json`): one stack per backend URL (`stacks`),
 * or one for all (`stack`, earlier CLIs). The backend is `PULUMI_BACKEND_URL`
 * or Pulumi.yaml's `backend.url`; the login's current backend is not read
 * (it sits beside the access tokens), so with several backends' selections
 * and neither set, the stack is not guessed.
 */
function selectedStack(project: Project, env: NodeJS.ProcessEnv): { stack?: string; why?: string } {
  const home = env.PULUMI_HOME || path.join(os.homedir(), ".pulumi");
  const hash = crypto.createHash("sha1").update(project.file).digest("hex");
  const file = path.join(home, "workspaces", `${project.name}-${hash}-workspace.json`);
  let settings: { stack?: unknown; stacks?: unknown };
  try {
    settings = JSON.parse(fs.readFileSync(file, "utf8")) as typeof settings;
  } catch {
    return { why: "`pulumi stack select` has not chosen one" };
  }
  const stacks = isRecord(settings.stacks) ? Object.entries(settings.stacks).filter((e): e is [string, string] => typeof e[1] === "string") : [];
  const backend = env.PULUMI_BACKEND_URL || project.backendUrl;
  const trim = (url: string) => url.replace(/\/+$/, "");
  const forBackend = backend ? stacks.find(([url]) => trim(url) === trim(backend)) : undefined;
  const chosen = forBackend?.[1] ?? (stacks.length === 1 ? stacks[0]![1] : undefined) ?? (typeof settings.stack === "string" ? settings.stack : undefined);
  if (chosen) return { stack: chosen.slice(chosen.lastIndexOf("/") + 1) };
  return { why: stacks.length > 1 ? `a stack is selected on each of ${stacks.length} backends and PULUMI_BACKEND_URL does not say which` : "`pulumi stack select` has not chosen one" };
}

/** The journal keys of `Pulumi.<stack>.yaml`, then of Pulumi.yaml's project config (values and defaults). */
function readStackJournal(project: Project, stack: string, cwd: string): StackJournal {
  const stackFile = path.join(project.stackConfigDir, `Pulumi.${stack}.yaml`);
  const stackDoc = fs.existsSync(stackFile) ? readYaml(stackFile) : undefined;
  const stackConfig = isRecord(stackDoc?.config) ? stackDoc.config : {};
  const found: StackJournal = { stack, secret: [] };
  const shown = (file: string) => path.relative(cwd, file) || file;
  for (const [key, field] of [
    [URL_KEY, "url"],
    [DIR_KEY, "dir"],
  ] as const) {
    const own = stackConfig[key];
    if (isRecord(own) && "secure" in own) {
      found.secret.push(key);
      continue;
    }
    const value = scalar(own);
    if (value !== undefined) {
      found[field] = { value, from: `${key} in ${shown(stackFile)}` };
      continue;
    }
    const declared = project.config[key];
    const projectValue = isRecord(declared) ? (scalar(declared.value) ?? scalar(declared.default)) : scalar(declared);
    if (projectValue !== undefined) found[field] = { value: projectValue, from: `${key} in ${shown(project.file)}, the project's config` };
  }
  return found;
}

function readYaml(file: string): Record<string, unknown> | undefined {
  try {
    const doc = yaml.load(fs.readFileSync(file, "utf8"));
    return isRecord(doc) ? doc : undefined;
  } catch {
    return undefined;
  }
}

function scalar(value: unknown): string | undefined {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? (String(value) === "" ? undefined : String(value)) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sameDir(a: string, b: string): boolean {
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}
