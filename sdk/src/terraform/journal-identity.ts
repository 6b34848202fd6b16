/**
 * The purchase journal's key for a Terraform resource, which Terraform gives
 * no address, count/for_each key or run id (docs/terraform.md, "The purchase
 * journal"). It keeps the journal's key format (`journal/key.ts`):
 *
 *     org=terraform;backend=<fingerprint>;urn:pulumi:<workspace>::terraform::certreseller:index:Order::<name>
 *
 * - the backend fingerprint: the Terraform backend's type and identifying
 *   configuration (`.terraform/terraform.tfstate`, credentials left out; for
 *   `local`, the state file's absolute path), so one state gives one
 *   fingerprint on every machine that shares it;
 * - the workspace (`TF_WORKSPACE`, else `.terraform/environment`, else `default`);
 * - the name: the Order's `journal_ref`, else the purchase's own identity
 *   (product code and the sorted names), the same in the plan and apply
 *   processes and after a killed apply.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { useBackendIdentity } from "../journal/key.js";
import { isUnknown } from "../provider/unknown.js";

/** The journal scope of every Terraform purchase: apart from every Pulumi organisation's. */
export const TERRAFORM_SCOPE = "org=terraform";

/** The project part of a Terraform key's URN: `certreseller journal ls` shows `<workspace>/terraform`. */
export const TERRAFORM_PROJECT = "terraform";

/** Configuration members that hold or point at credentials: never part of the identity (nor logged). */
const CREDENTIAL = /(password|secret|token|credential|access_key|secret_key|session|sas|client_id|client_certificate|private_key|oidc|msi|assume_role|profile|skip_|retry|retries|timeout|encrypt|kms|sse|lock|insecure|ca_file|^headers$)/i;

/** What identifies a Terraform state: its backend and the workspace. */
export interface TerraformStack {
  readonly backendType: string;
  /** The identifying configuration, canonical JSON (sorted, credentials and options left out). */
  readonly backendConfig: string;
  readonly workspace: string;
  /** Where it was read from, for messages. */
  readonly source: string;
}

/** `.terraform`, or `TF_DATA_DIR`, relative to Terraform's working directory. */
function dataDir(env: NodeJS.ProcessEnv, cwd: string): string {
  return path.resolve(cwd, env.TF_DATA_DIR?.trim() || ".terraform");
}

/** Strings of a configuration, flattened (`workspaces.name`), credentials dropped, URLs without user or query. */
function identifying(config: unknown, prefix = ""): [string, string][] {
  if (config === null || typeof config !== "object") return [];
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(config as Record<string, unknown>)) {
    if (CREDENTIAL.test(key)) continue;
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string" && value.trim() !== "") out.push([name, value.trim().replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, "$1").replace(/[?#].*$/, "")]);
    else if (Array.isArray(value)) value.forEach((v, i) => out.push(...identifying({ [String(i)]: v }, name)));
    else if (value && typeof value === "object") out.push(...identifying(value, name));
  }
  return out;
}

/**
 * The stack this process serves, as Terraform left it in its working
 * directory: the backend `terraform init` recorded (none: `local`), and
 * the selected workspace.
 *
 * @example
 * terraformStack({}, "/srv/infra") // { backendType: "local", backendConfig: '{"path":"/srv/infra/terraform.tfstate"}', workspace: "default", ... }
 */
export function terraformStack(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): TerraformStack {
  const dir = dataDir(env, cwd);
  let workspace = env.TF_WORKSPACE?.trim() || "";
  if (!workspace) {
    try {
      workspace = fs.readFileSync(path.join(dir, "environment"), "utf8").trim();
    } catch {
      // no workspace selected: the default one
    }
  }
  workspace ||= "default";
  const stateFile = path.join(dir, "terraform.tfstate");
  let backend: { type?: unknown; config?: unknown } | undefined;
  try {
    backend = (JSON.parse(fs.readFileSync(stateFile, "utf8")) as { backend?: { type?: unknown; config?: unknown } }).backend;
  } catch {
    backend = undefined; // never initialised with a backend block: the local backend
  }
  const type = typeof backend?.type === "string" && backend.type ? backend.type : "local";
  const pairs = identifying(backend?.config ?? {});
  if (type === "local") {
    // The local backend is the state file: its absolute path, wherever the module was run from.
    const given = pairs.find(([k]) => k === "path")?.[1];
    const workspaceDir = pairs.find(([k]) => k === "workspace_dir")?.[1];
    const config = { path: path.resolve(cwd, given ?? "terraform.tfstate"), ...(workspaceDir ? { workspace_dir: path.resolve(cwd, workspaceDir) } : {}) };
    return { backendType: type, backendConfig: JSON.stringify(config), workspace, source: backend ? stateFile : `${cwd} (no backend initialised: local)` };
  }
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { backendType: type, backendConfig: JSON.stringify(Object.fromEntries(pairs)), workspace, source: stateFile };
}

/** The backend identity the journal fingerprints (`useBackendIdentity`): type and configuration; the workspace is in the URN. */
export function backendIdentity(stack: TerraformStack): string {
  return `terraform:${stack.backendType}:${stack.backendConfig}`;
}

/** Makes every journal key of this process use `stack`'s backend (the Terraform front end's configure calls it). */
export function useTerraformStack(stack: TerraformStack): void {
  useBackendIdentity(backendIdentity(stack));
}

/** What a `journal_ref` may hold: it becomes the last part of a URN and of a key split on `;`. */
const REF = /^[A-Za-z0-9][A-Za-z0-9._\-/@+=,]{0,127}$/;

/** Why a `journal_ref` cannot be used, or undefined. */
export function journalRefProblem(ref: unknown): string | undefined {
  if (ref === null || ref === undefined) return undefined;
  if (typeof ref !== "string" || !REF.test(ref)) return `journal_ref must be 1-128 letters, digits or . _ - / @ + = , (starting with a letter or digit), not ${JSON.stringify(ref)}`;
  return undefined;
}

/**
 * The name part of an Order's key: its `journal_ref`, else product code and
 * the sorted, lower-cased names (`sandbox-dv-single:a.example.com,www.example.com`).
 * Undefined while one of them is unknown (a plan before an upstream value).
 */
export function purchaseName(inputs: { productCode?: unknown; domain?: unknown; sanDomains?: unknown; wildcardDomains?: unknown }, ref: unknown): string | undefined {
  if (typeof ref === "string" && ref !== "") return `ref=${ref}`;
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
  const parts = [inputs.productCode, inputs.domain, ...list(inputs.sanDomains), ...list(inputs.wildcardDomains)];
  if (parts.some((p) => isUnknown(p)) || typeof inputs.productCode !== "string" || typeof inputs.domain !== "string") return undefined;
  const names = [...new Set([inputs.domain, ...list(inputs.sanDomains), ...list(inputs.wildcardDomains)].map((n) => String(n).trim().toLowerCase().replace(/\.$/, "")))].sort();
  return `${inputs.productCode.trim()}:${names.join(",")}`;
}

/**
 * The URN-shaped journal key of a Terraform resource of `token` named `name` in `workspace`.
 *
 * @example
 * terraformUrn("default", "certreseller:index:Order", "ref=site") === "urn:pulumi:default::terraform::certreseller:index:Order::ref=site"
 */
export function terraformUrn(workspace: string, token: string, name: string): string {
  return `urn:pulumi:${workspace}::${TERRAFORM_PROJECT}::${token}::${name}`;
}
