/**
 * The provider half of `terraform-provider-certreseller`: Terraform's calls,
 * decoded by the wire half (`contract.ts`), answered by the handler modules
 * every front end runs (`provider/entry.ts`: the same check, diff, create,
 * read, update, delete and import, so the journal, never-retry and evidence
 * rules are the same code). This file translates:
 *
 * - HCL values to the declared inputs and back (values.ts), the schema from
 *   the declarations (schema.ts);
 * - the inputs a front end adds: the Order's journal key and scope
 *   (journal-identity.ts; Terraform tells a provider no resource address),
 *   and the presentations' inputs and outputs (as the Pulumi plugin's);
 * - Terraform's plan/apply split: the plan is the preview (the handler's
 *   check, then its diff), and what it shows known is what the apply, in
 *   another process, gives again;
 * - a failure after CreateOrder: the state holding the order and a warning,
 *   never an error (Terraform would taint it, and the next plan replace it:
 *   a refund and a second purchase); the next plan plans an update that
 *   resumes the remaining steps, as the Pulumi engine does after a partial
 *   failure;
 * - lines the handlers log: warnings become diagnostics, the rest goes to the
 *   provider's stderr (Terraform's log).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { configure, handlerModule, invoke, settingsOf } from "../provider/entry.js";
import type { ProviderMethod } from "../provider/handlers.js";
import { createContext, stopPurchases } from "../provider/context.js";
import { useLogSink } from "../provider/engine-log.js";
import { PROVIDER_CONFIG, defaultJournalDir, type ProviderSettings } from "../provider/config.js";
import { UNKNOWN as HANDLER_UNKNOWN, containsUnknown } from "../provider/unknown.js";
import { checkConfig, configSource } from "../plugin/configuration.js";
import { runInvoke } from "../plugin/invokes.js";
import { entries, isDerived, parseDeclared, presentationInputs, type InputFailure } from "../schema/property.js";
import {
  UNKNOWN,
  type ApplyRequest,
  type Diagnostic,
  type PlanRequest,
  type PlanResponse,
  type StateResponse,
  type TerraformProvider,
  type TfObject,
  type TfPath,
  type TfSchema,
  type TfValue,
} from "./contract.js";
import { TERRAFORM_SCOPE, journalRefProblem, purchaseName, terraformStack, terraformUrn, useTerraformStack, type TerraformStack } from "./journal-identity.js";
import { attributePath, snakeCase, terraformWords } from "./names.js";
import { ID, JOURNAL_REF, TERRAFORM_DATA_SOURCES, TERRAFORM_RESOURCES, resourceOf, type TerraformResource } from "./resources.js";
import { filledWhenUnset, terraformSchema } from "./schema.js";
import { fromTf, holdsUnknown, inputsOf, stateOf, storedOf, toTf, type Props } from "./values.js";

/** What the front end keeps beside a state (Terraform's private bytes): what the handlers stored that no attribute declares, and a step left to resume. */
interface Private {
  /** Handler outputs no attribute declares (the Order's journal key and scope, the account's endpoint). */
  hidden?: Props;
  /** A create or update that failed after the purchase: the next plan plans an update that resumes it. */
  pending?: string;
  /** What the planned change does (plannedPrivate only): the handler's update, a presentation only, or nothing at the service. */
  action?: "update" | "present" | "none";
}

/**
 * Outputs an in-place update keeps (what was bought, and by whom): the plan
 * shows them known, so resources that follow the Order (its `order_no`) are
 * not planned to change with it. Every other output of an updated resource
 * is unknown until the update answers.
 */
const KEPT_ON_UPDATE: ReadonlySet<string> = new Set(["orderNo", "price", "quotedPrice", "paidAt", "termEndsAt", "adopted", "resumedAt", "accountId"]);

/** The Order's order number attribute: planned known for a create that resumes a journaled order. */
const ORDER_NO = "order_no";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function readPrivate(bytes: Uint8Array | undefined): Private {
  if (!bytes || bytes.length === 0) return {};
  try {
    const parsed = JSON.parse(decoder.decode(bytes)) as unknown;
    return parsed && typeof parsed === "object" ? (parsed as Private) : {};
  } catch {
    return {};
  }
}

const writePrivate = (value: Private): Uint8Array => encoder.encode(JSON.stringify(value));

/** A line a handler logged during one call. */
interface Line {
  readonly level: "info" | "warn";
  readonly line: string;
}

/** The lines of the call being served (see {@link createProvider}: one sink for the process, one collector per call). */
const collected = new AsyncLocalStorage<Line[]>();

let sinkInstalled = false;
function installSink(): void {
  if (sinkInstalled) return;
  sinkInstalled = true;
  // Stdout is go-plugin's handshake channel: lines outside a call go to stderr, which Terraform logs.
  useLogSink((level, line) => {
    const lines = collected.getStore();
    if (lines) lines.push({ level, line });
    else process.stderr.write(`${level === "warn" ? "WARNING: " : ""}${line}\n`);
  });
}

const error = (summary: string, detail?: string, attribute?: TfPath): Diagnostic => ({ severity: "error", summary, ...(detail ? { detail } : {}), ...(attribute ? { attribute } : {}) });
const warning = (summary: string, detail?: string, attribute?: TfPath): Diagnostic => ({ severity: "warning", summary, ...(detail ? { detail } : {}), ...(attribute ? { attribute } : {}) });

/** A check failure as an error on its attribute (none: the resource). */
function failureDiagnostic(typeName: string, failure: InputFailure): Diagnostic {
  const path = attributePath(failure.property);
  return error(`${typeName}: ${path.length ? `${path.join(".")}: ` : ""}${failure.reason}`, undefined, path.length ? path : undefined);
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A handler's partial failure (a paid order whose later step failed): its id and the state to keep. */
function partialOf(e: unknown): { id: string; properties: Props; reasons: string[] } | undefined {
  const p = e as { id?: unknown; properties?: unknown; reasons?: unknown };
  if (!p || typeof p.id !== "string" || p.id === "" || !p.properties || typeof p.properties !== "object") return undefined;
  return { id: p.id, properties: p.properties as Props, reasons: Array.isArray(p.reasons) ? p.reasons.map(String) : [messageOf(e)] };
}

function omit(props: Props, names: readonly string[]): Props {
  const out = { ...props };
  for (const name of names) delete out[name];
  return out;
}

const sameTf = (a: TfValue | undefined, b: TfValue | undefined): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The outputs a presentation input changes: the derived ones. */
const derivedNames = (r: TerraformResource): Set<string> => new Set(entries(r.declaration.properties).filter(([, p]) => isDerived(p)).map(([name]) => name));

/** The Terraform provider over the registry's resources. */
class CertresellerTerraform implements TerraformProvider {
  /** The provider object the handlers' entry keys its settings by. */
  readonly #self = {};
  readonly #env: NodeJS.ProcessEnv;
  readonly #cwd: string;
  #stack: TerraformStack | undefined;
  /** Journal keys of the creates this process planned, and what each buys: two instances must never share one. */
  readonly #plannedCreates = new Map<string, string>();
  readonly #inFlight = new Set<Promise<unknown>>();
  #stopped: string | undefined;

  constructor(options: { env?: NodeJS.ProcessEnv; cwd?: string }) {
    this.#env = options.env ?? process.env;
    this.#cwd = options.cwd ?? process.cwd();
    installSink();
  }

  /** The API key and its secret half (a valid key on its own): never in a diagnostic. */
  secrets(): string[] {
    let key: string | undefined;
    try {
      key = settingsOf(this.#self).apiKey;
    } catch {
      return [];
    }
    if (!key) return [];
    const half = key.includes(":") ? key.slice(key.indexOf(":") + 1) : undefined;
    return [key, half].filter((s): s is string => typeof s === "string" && s.length >= 4);
  }

  schema(): TfSchema {
    return terraformSchema();
  }

  /** The stack this process serves (read once: Terraform starts the provider in the root module). */
  #stackOf(): TerraformStack {
    if (!this.#stack) {
      this.#stack = terraformStack(this.#env, this.#cwd);
      useTerraformStack(this.#stack);
    }
    return this.#stack;
  }

  /** The provider block's values as the settings' names (`api_key` → `apiKey`), known values only. */
  #settingArgs(config: TfObject): Props {
    const args: Props = {};
    for (const [name, p] of entries(PROVIDER_CONFIG)) {
      const value = config[snakeCase(name)];
      if (value === null || value === undefined || value === UNKNOWN) continue;
      args[name] = fromTf(p.type, value);
    }
    return args;
  }

  async validateProviderConfig(config: TfObject): Promise<readonly Diagnostic[]> {
    // A setting not known yet (from another resource) is judged at configure.
    return checkConfig(this.#settingArgs(config)).map((f) => error(`provider certreseller: ${snakeCase(f.property)}: ${f.reason.replace(/certreseller:(\w+)/g, (_m, n: string) => snakeCase(n))}`, undefined, [snakeCase(f.property)]));
  }

  async configure(config: TfObject, _terraformVersion: string): Promise<readonly Diagnostic[]> {
    const problems = await this.validateProviderConfig(config);
    if (problems.length > 0) return problems;
    const args = this.#settingArgs(config);
    // Unset, a Pulumi process keeps the journal beside its stack's bucket backend, which it reads from Pulumi's settings:
    // never a Terraform configuration's. Here unset is the default folder (journal_url, or its variable, still wins).
    if (args.journalDir === undefined && !this.#env.CERTRESELLER_JOURNAL_DIR && !process.env.CERTRESELLER_JOURNAL_DIR) args.journalDir = defaultJournalDir();
    const source = configSource(args, {});
    try {
      // The HCL setting first, then the same environment variables as the Pulumi provider.
      configure(this.#self, { get: (key) => source.get(key) });
    } catch (e) {
      return [error(`provider certreseller: ${messageOf(e)}`)];
    }
    this.#stackOf();
    const said: Diagnostic[] = [];
    if (settingsOf(this.#self).organization) {
      said.push(
        warning(
          "provider certreseller: organization is not used by Terraform",
          `The purchase journal keys Terraform's orders by the backend (${this.#stackOf().backendType}) and the workspace, under the scope "${TERRAFORM_SCOPE}"; the organization setting is a Pulumi setting.`,
          ["organization"],
        ),
      );
    }
    return said;
  }

  async validateResourceConfig(typeName: string, config: TfObject): Promise<readonly Diagnostic[]> {
    const r = resourceOf(typeName);
    const diagnostics: Diagnostic[] = [];
    // Each known value by its own rule; the rules across inputs (and the product's) are the plan's check.
    for (const [attribute, a] of r.attributes) {
      const value = config[attribute];
      if (!a.input || value === null || value === undefined || holdsUnknown(value)) continue;
      const parsed = parseDeclared(a.declaration, fromTf(a.declaration.type, value), a.name);
      for (const failure of parsed.failures ?? []) diagnostics.push(failureDiagnostic(typeName, failure));
    }
    const ref = config[JOURNAL_REF];
    const problem = ref === UNKNOWN ? undefined : journalRefProblem(ref);
    if (problem) diagnostics.push(error(`${typeName}: ${problem}`, undefined, [JOURNAL_REF]));
    return diagnostics;
  }

  async validateDataSourceConfig(typeName: string, _config: TfObject): Promise<readonly Diagnostic[]> {
    if (!TERRAFORM_DATA_SOURCES.has(typeName)) return [error(`certreseller: unknown data source ${JSON.stringify(typeName)}`)];
    return [];
  }

  async upgradeResourceState(typeName: string, _version: number, state: TfObject): Promise<{ state: TfObject; diagnostics?: readonly Diagnostic[] }> {
    // Version 0 is the only one: keep the attributes this schema has (a property retired since drops out).
    const r = resourceOf(typeName);
    const known = new Set([...r.attributes.keys(), ...r.frontEnd.map((f) => f.attribute)]);
    return { state: Object.fromEntries(Object.entries(state).filter(([k]) => known.has(k))) };
  }

  /** Runs a handler method, counted as in flight (StopProvider waits for it), collecting its lines. */
  async #run(r: TerraformResource, method: ProviderMethod, args: unknown[], lines: Line[]): Promise<any> {
    const mutates = method === "create" || method === "update" || method === "delete";
    if (this.#stopped !== undefined && mutates) throw new Error(`certreseller: ${this.#stopped}: this ${method} was not started`);
    const running = collected.run(lines, () => invoke(this.#self, handlerModule(r.handler)!, method, args));
    this.#inFlight.add(running);
    void running.catch(() => undefined).finally(() => this.#inFlight.delete(running));
    return running;
  }

  /**
   * The inputs a front end adds to the declared ones. An Order: its journal
   * key and scope (the key a state holds when it has one, else the one
   * journal-identity.ts derives). The others: what their presentation adds,
   * with a URN-shaped name for their log lines.
   */
  #frontEndInputs(r: TerraformResource, inputs: Props, ref: TfValue | undefined, held: Props | undefined, lines: Line[]): Props {
    const stack = this.#stackOf();
    if (r.buys) {
      if (typeof held?.journalKey === "string") return { ...inputs, journalKey: held.journalKey, ...(held.journalScope ? { journalScope: held.journalScope } : {}) };
      const name = ref === UNKNOWN ? undefined : purchaseName(inputs, ref);
      return { ...inputs, journalKey: name ? terraformUrn(stack.workspace, r.declaration.token, name) : HANDLER_UNKNOWN, journalScope: TERRAFORM_SCOPE };
    }
    const add = r.presentation.programInputs;
    if (!add) return inputs;
    const urn = terraformUrn(stack.workspace, r.declaration.token, typeof inputs.orderNo === "string" && !containsUnknown(inputs.orderNo) ? inputs.orderNo : "new");
    return add(urn, inputs, { settings: this.#settings(), warn: (line) => lines.push({ level: "warn", line }) });
  }

  #settings(): ProviderSettings {
    return settingsOf(this.#self);
  }

  /** The handler's check of a configuration: its checked inputs, the presentation inputs as given, and the failures as diagnostics. */
  async #check(r: TerraformResource, olds: Props, config: TfObject, held: Props | undefined, lines: Line[]): Promise<{ checked: Props; given: Props; diagnostics: Diagnostic[] }> {
    const declared = inputsOf(r.attributes, config);
    const presented = presentationInputs(r.declaration.properties);
    const news = omit(this.#frontEndInputs(r, declared, config[JOURNAL_REF], held, lines), presented);
    const diagnostics: Diagnostic[] = [];
    const problem = config[JOURNAL_REF] === UNKNOWN ? undefined : journalRefProblem(config[JOURNAL_REF]);
    if (problem) diagnostics.push(error(`${r.typeName}: ${problem}`, undefined, [JOURNAL_REF]));
    const result = ((await this.#run(r, "check", [omit(olds, presented), news], lines)) ?? {}) as { inputs?: Props; failures?: InputFailure[] };
    for (const failure of result.failures ?? []) diagnostics.push(failureDiagnostic(r.typeName, failure));
    const given: Props = {};
    for (const name of presented) {
      if (declared[name] === undefined) continue;
      const parsed = containsUnknown(declared[name]) ? { value: declared[name] } : parseDeclared(r.declaration.properties[name]!, declared[name], name);
      if (parsed.failures) parsed.failures.forEach((f) => diagnostics.push(failureDiagnostic(r.typeName, f)));
      else given[name] = parsed.value;
    }
    return { checked: { ...(result.inputs ?? news) }, given, diagnostics };
  }

  /** The lines of a call as diagnostics: warnings always, the money lines of a plan too (`money`). */
  #said(lines: readonly Line[], money = false): Diagnostic[] {
    return lines.filter((l) => l.level === "warn" || (money && /: will (buy|resume) /.test(l.line))).map((l) => warning(l.line));
  }

  async planResourceChange(request: PlanRequest): Promise<PlanResponse> {
    const r = resourceOf(request.typeName);
    const lines: Line[] = [];
    const prior = request.priorState;
    const config = request.config;
    // A destroy: its delete decides on the API's answers, with what the state kept aside (the journal key).
    if (request.proposedNewState === null || config === null) return { plannedState: null, ...(request.priorPrivate ? { plannedPrivate: request.priorPrivate } : {}) };
    const priv = readPrivate(request.priorPrivate);
    if (prior === null) return this.#planCreate(r, config, lines);
    try {
      return await this.#planUpdate(r, prior, config, priv, lines);
    } catch (e) {
      return { plannedState: null, diagnostics: [...this.#said(lines), error(`${r.typeName}: ${messageOf(e)}`)] };
    }
  }

  async #planCreate(r: TerraformResource, config: TfObject, lines: Line[]): Promise<PlanResponse> {
    let checked: Props;
    let diagnostics: Diagnostic[];
    try {
      ({ checked, diagnostics } = await this.#check(r, {}, config, undefined, lines));
    } catch (e) {
      return { plannedState: null, diagnostics: [...this.#said(lines), error(`${r.typeName}: ${messageOf(e)}`)] };
    }
    diagnostics = [...this.#said(lines, r.buys), ...diagnostics];
    const key = typeof checked.journalKey === "string" && !containsUnknown(checked.journalKey) ? checked.journalKey : undefined;
    if (r.buys && key && !diagnostics.some((d) => d.severity === "error")) diagnostics.push(...this.#claimKey(r, key, checked));
    if (diagnostics.some((d) => d.severity === "error")) return { plannedState: null, diagnostics };
    const planned: Record<string, TfValue> = {};
    for (const extra of r.frontEnd) planned[extra.attribute] = extra.attribute === ID ? UNKNOWN : (config[extra.attribute] ?? null);
    for (const [attribute, a] of r.attributes) {
      const given = config[attribute] ?? null;
      if (a.input && given !== null) planned[attribute] = given;
      else if (a.input && !a.output) planned[attribute] = null;
      else if (checked[a.name] !== undefined) planned[attribute] = toTf(a.declaration.type, checked[a.name]); // a default, or the quoted price
      else planned[attribute] = !a.input || filledWhenUnset(a.declaration) ? UNKNOWN : null;
    }
    // A create that resumes a journaled order shows that order's number in the plan: the one mark a saved
    // plan (`show -json`) carries that it charges nothing. A promise, as the price is: if the apply's plan
    // no longer resumes it, Terraform stops with an inconsistent final plan before anything is bought.
    const resumes = checked.resumesOrderNo;
    if (r.buys && typeof resumes === "string" && !containsUnknown(resumes) && r.attributes.has(ORDER_NO)) planned[ORDER_NO] = resumes;
    return { plannedState: planned, plannedPrivate: writePrivate({}), diagnostics };
  }

  /**
   * Two instances planned to buy under one journal key would share one
   * entry: the second would resume (hold) the first one's order, or one's
   * tidying close the other's intent. Refused at plan. (An instance and its
   * own replacement share the key, as a Pulumi resource and its replacement
   * share a URN: the journal's rules for a replacement apply.)
   */
  #claimKey(r: TerraformResource, key: string, checked: Props): Diagnostic[] {
    const what = `${String(checked.productCode)} for ${[checked.domain, ...((checked.sanDomains as unknown[]) ?? []), ...((checked.wildcardDomains as unknown[]) ?? [])].join(", ")}`;
    const advice =
      `Set \`${JOURNAL_REF}\` to a distinct value on each instance that buys the same product for the same names in this workspace (with count or for_each: \`${JOURNAL_REF} = each.key\` or ` +
      `\`"\${count.index}"\`). Nothing was bought.`;
    const other = this.#plannedCreates.get(key);
    if (other !== undefined) {
      return [
        error(
          `${r.typeName}: two instances planned in this run buy ${what} under one purchase journal key`,
          `This instance and another one (${other}) would share the journal entry ${key}: a killed apply could then give both the same order, and one's destroy would cancel the other's certificate. ${advice}`,
          [JOURNAL_REF],
        ),
      ];
    }
    this.#plannedCreates.set(key, what);
    return [];
  }

  async #planUpdate(r: TerraformResource, prior: TfObject, config: TfObject, priv: Private, lines: Line[]): Promise<PlanResponse> {
    const hidden = priv.hidden ?? {};
    const stored = this.#stored(r, prior, hidden);
    const id = typeof prior[ID] === "string" ? prior[ID] : String(stored.orderNo ?? "");
    const { checked, diagnostics: failures } = await this.#check(r, this.#oldInputs(r, stored, hidden), config, hidden, lines);
    if (failures.some((d) => d.severity === "error")) return { plannedState: null, diagnostics: [...this.#said(lines), ...failures] };
    const diff = ((await this.#run(r, "diff", [id, stored, checked], lines)) ?? {}) as { changes?: boolean; replaces?: string[] };
    const diagnostics = [...this.#said(lines), ...failures];
    const replaces = (diff.replaces ?? []).map((name) => [snakeCase(name)] as TfPath);
    const presentationChanged = presentationInputs(r.declaration.properties).some((name) => !sameTf(prior[snakeCase(name)], config[snakeCase(name)]));
    const action: Private["action"] = replaces.length > 0 || priv.pending || diff.changes === true ? "update" : presentationChanged ? "present" : "none";
    if (priv.pending && replaces.length === 0) {
      diagnostics.push(warning(`${r.typeName} ${id}: a step after the purchase is left to do; this apply resumes it (nothing is bought)`, priv.pending));
    }
    const derived = derivedNames(r);
    const planned: Record<string, TfValue> = {};
    for (const extra of r.frontEnd) planned[extra.attribute] = extra.attribute === ID ? (prior[ID] ?? null) : (config[extra.attribute] ?? null);
    for (const [attribute, a] of r.attributes) {
      const configured = config[attribute] ?? null;
      const fallback = checked[a.name];
      if (a.input && configured !== null) planned[attribute] = configured;
      else if (a.input && !a.output) planned[attribute] = null;
      else if (a.input && (fallback !== undefined || !filledWhenUnset(a.declaration))) planned[attribute] = toTf(a.declaration.type, fallback); // a default, or gone
      else if (a.input) planned[attribute] = action === "update" ? UNKNOWN : (prior[attribute] ?? null); // what the service fills in: an update may learn it anew
      else if (action === "update" && !KEPT_ON_UPDATE.has(a.name)) planned[attribute] = UNKNOWN;
      else if (action === "present" && derived.has(a.name)) planned[attribute] = UNKNOWN;
      else planned[attribute] = prior[attribute] ?? null;
    }
    return {
      plannedState: planned,
      ...(replaces.length > 0 ? { requiresReplace: replaces } : {}),
      plannedPrivate: writePrivate({ ...priv, action }),
      diagnostics,
    };
  }

  /** The inputs a state was made with, as the handler's check takes old inputs. */
  #oldInputs(r: TerraformResource, stored: Props, hidden: Props): Props {
    const old: Props = {};
    for (const a of r.attributes.values()) if (a.input && stored[a.name] !== undefined) old[a.name] = stored[a.name];
    for (const name of ["journalKey", "journalScope"]) if (hidden[name] !== undefined) old[name] = hidden[name];
    return old;
  }

  /** A state as the handlers stored it (presentation undone). */
  #stored(r: TerraformResource, state: TfObject, hidden: Props): Props {
    const stored = storedOf(r.attributes, state, hidden);
    return r.presentation.stored ? r.presentation.stored(stored) : stored;
  }

  /**
   * Handler outputs as the new state: presented (the outputs computed from
   * the stored ones), and every value the plan showed known kept as planned,
   * since Terraform refuses an apply that answers otherwise (and would then
   * taint what was bought). A differing output is said in a warning.
   */
  #newState(r: TerraformResource, outputs: Props, given: Props, planned: TfObject | null, id: string): { state: Record<string, TfValue>; hidden: Props; diagnostics: Diagnostic[] } {
    const inputs = { ...outputs, ...given };
    const presented = r.presentation.present ? r.presentation.present(outputs, inputs) : outputs;
    const { state, hidden } = stateOf(r.attributes, presented);
    const diagnostics: Diagnostic[] = [];
    for (const extra of r.frontEnd) state[extra.attribute] = extra.attribute === ID ? id : (planned?.[extra.attribute] ?? null);
    if (planned) {
      for (const [attribute, value] of Object.entries(planned)) {
        if (value === UNKNOWN || holdsUnknown(value) || !(attribute in state) || attribute === ID) continue;
        const a = r.attributes.get(attribute);
        if (a && !a.input && !sameTf(state[attribute], value)) {
          diagnostics.push(warning(`${r.typeName} ${id}: ${attribute} is ${JSON.stringify(state[attribute])} at the service; the plan showed ${JSON.stringify(value)}, which is kept in state until the next refresh`));
        }
        state[attribute] = value;
      }
    }
    return { state, hidden, diagnostics };
  }

  applyResourceChange(request: ApplyRequest): Promise<StateResponse> {
    // The whole call is in flight, its answer included: StopProvider returns once what it did is in the answer Terraform records.
    const running = this.#apply(request);
    this.#inFlight.add(running);
    void running.catch(() => undefined).finally(() => this.#inFlight.delete(running));
    return running;
  }

  async #apply(request: ApplyRequest): Promise<StateResponse> {
    const r = resourceOf(request.typeName);
    const lines: Line[] = [];
    const prior = request.priorState;
    const planned = request.plannedState;
    if (planned === null) return prior === null ? { newState: null } : this.#delete(r, prior, request, lines);
    if (prior === null) return this.#create(r, planned, request, lines);
    return this.#update(r, prior, planned, request, lines);
  }

  async #create(r: TerraformResource, planned: TfObject, request: ApplyRequest, lines: Line[]): Promise<StateResponse> {
    const config = request.config ?? planned;
    let given: Props = {};
    try {
      const checkedRun = await this.#check(r, {}, config, undefined, lines);
      given = checkedRun.given;
      if (checkedRun.diagnostics.some((d) => d.severity === "error")) return { newState: null, diagnostics: [...this.#said(lines), ...checkedRun.diagnostics] };
      if (this.#stopped !== undefined && r.buys) throw new Error(`${this.#stopped}: nothing was bought`);
      const result = (await this.#run(r, "create", [checkedRun.checked], lines)) as { id: string; outs?: Props };
      const made = this.#newState(r, result.outs ?? {}, given, planned, result.id);
      return { newState: made.state, private: writePrivate({ hidden: made.hidden }), diagnostics: [...this.#said(lines), ...checkedRun.diagnostics.filter((d) => d.severity === "warning"), ...made.diagnostics] };
    } catch (e) {
      return this.#failed(r, e, given, planned, lines, null);
    }
  }

  /**
   * A failed create or update. A partial failure (the order is bought, a
   * later step failed) keeps the order in state with a warning saying what
   * the next apply does: an error here would taint it, and the next plan
   * would replace it (a refund and a second purchase). Anything else is an
   * error, with the state as it was (`prior`; null for a create: nothing exists).
   */
  #failed(r: TerraformResource, e: unknown, given: Props, planned: TfObject, lines: Line[], prior: { state: TfObject; priv: Private } | null): StateResponse {
    const partial = partialOf(e);
    if (partial) {
      const made = this.#newState(r, partial.properties, given, planned, partial.id);
      const reasons = partial.reasons.join("; ");
      return {
        newState: made.state,
        private: writePrivate({ hidden: made.hidden, pending: reasons }),
        diagnostics: [
          ...this.#said(lines),
          warning(
            `${r.typeName} ${partial.id}: bought and kept in state, but a later step failed; the next \`terraform apply\` resumes it and does NOT buy again`,
            `${reasons}\n\nThe order is in state (not tainted). Run \`terraform apply\` again once the cause is fixed: its plan shows an update of this resource, which resumes the remaining steps (ApplySign). Do not use -replace on it: that cancels this order and buys another.`,
          ),
        ],
      };
    }
    return { newState: prior ? prior.state : null, ...(prior ? { private: writePrivate(prior.priv) } : {}), diagnostics: [...this.#said(lines), error(`${r.typeName}: ${messageOf(e)}`)] };
  }

  async #update(r: TerraformResource, prior: TfObject, planned: TfObject, request: ApplyRequest, lines: Line[]): Promise<StateResponse> {
    const priorPrivate = readPrivate(request.plannedPrivate);
    const { action, ...kept } = priorPrivate;
    const hidden = kept.hidden ?? {};
    const config = request.config ?? planned;
    const stored = this.#stored(r, prior, hidden);
    const id = typeof prior[ID] === "string" ? prior[ID] : String(stored.orderNo ?? "");
    let given: Props = {};
    try {
      const checkedRun = await this.#check(r, this.#oldInputs(r, stored, hidden), config, hidden, lines);
      given = checkedRun.given;
      if (checkedRun.diagnostics.some((d) => d.severity === "error")) return { newState: prior, private: writePrivate(kept), diagnostics: [...this.#said(lines), ...checkedRun.diagnostics] };
      if (action === "update") {
        const result = ((await this.#run(r, "update", [id, stored, checkedRun.checked], lines)) ?? {}) as { outs?: Props };
        const made = this.#newState(r, result.outs ?? stored, given, planned, id);
        return { newState: made.state, private: writePrivate({ hidden: { ...hidden, ...made.hidden } }), diagnostics: [...this.#said(lines), ...made.diagnostics] };
      }
      // Nothing at the service: the inputs as configured, the outputs presented again (a new PKCS#12 password, another output form).
      const made = this.#newState(r, { ...stored, ...omit(checkedRun.checked, ["journalKey", "journalScope", "quotedPrice", "resumesOrderNo", "resourceUrn"]) }, given, planned, id);
      for (const [attribute, value] of Object.entries(planned)) if (value !== UNKNOWN && !holdsUnknown(value)) made.state[attribute] = value;
      return { newState: made.state, private: writePrivate({ ...kept, hidden: { ...hidden, ...made.hidden } }), diagnostics: this.#said(lines) };
    } catch (e) {
      return this.#failed(r, e, given, planned, lines, { state: prior, priv: kept });
    }
  }

  async #delete(r: TerraformResource, prior: TfObject, request: ApplyRequest, lines: Line[]): Promise<StateResponse> {
    const priv = readPrivate(request.plannedPrivate);
    const stored = this.#stored(r, prior, priv.hidden ?? {});
    const id = typeof prior[ID] === "string" ? prior[ID] : String(stored.orderNo ?? "");
    try {
      await this.#run(r, "delete", [id, stored], lines);
      return { newState: null, diagnostics: this.#said(lines) };
    } catch (e) {
      // Kept in state: a destroy that did not happen must not drop a paid order.
      return { newState: prior, private: writePrivate(priv), diagnostics: [...this.#said(lines), error(`${r.typeName} ${id}: ${messageOf(e)}`)] };
    }
  }

  async readResource(typeName: string, currentState: TfObject, priv?: Uint8Array): Promise<StateResponse> {
    const r = resourceOf(typeName);
    const lines: Line[] = [];
    const kept = readPrivate(priv);
    const hidden = kept.hidden ?? {};
    const stored = this.#stored(r, currentState, hidden);
    const id = typeof currentState[ID] === "string" ? currentState[ID] : String(stored.orderNo ?? "");
    try {
      const result = ((await this.#run(r, "read", [id, stored], lines)) ?? {}) as { id?: string; props?: Props };
      if (!result.id || !result.props) return { newState: null, diagnostics: this.#said(lines) }; // gone, on the API's word (the handler decided)
      const given: Props = {};
      for (const name of presentationInputs(r.declaration.properties)) {
        const value = fromTf(r.declaration.properties[name]!.type, currentState[snakeCase(name)]);
        if (value !== undefined) given[name] = value;
      }
      const made = this.#newState(r, result.props, given, null, result.id);
      // The inputs stay as the configuration wrote them (the handler's are canonical): no difference where there is none.
      for (const [attribute, a] of r.attributes) if (a.input && (currentState[attribute] ?? null) !== null) made.state[attribute] = currentState[attribute]!;
      for (const extra of r.frontEnd) if (extra.attribute !== ID) made.state[extra.attribute] = currentState[extra.attribute] ?? null;
      return { newState: made.state, private: writePrivate({ ...kept, hidden: { ...hidden, ...made.hidden } }), diagnostics: this.#said(lines) };
    } catch (e) {
      return { newState: currentState, ...(priv ? { private: priv } : {}), diagnostics: [...this.#said(lines), error(`${r.typeName} ${id}: ${messageOf(e)}`)] };
    }
  }

  async importResourceState(typeName: string, id: string): Promise<{ imported: readonly { typeName: string; state: TfObject; private?: Uint8Array }[]; diagnostics?: readonly Diagnostic[] }> {
    const r = resourceOf(typeName);
    const lines: Line[] = [];
    // The resource's own check on what the service shows, with what the front end adds (an Order's journal key).
    const check = async (declared: Props): Promise<Props> => {
      const news = this.#frontEndInputs(r, declared, null, undefined, lines);
      const result = ((await this.#run(r, "check", [{}, news], lines)) ?? {}) as { inputs?: Props; failures?: InputFailure[] };
      const failures = result.failures ?? [];
      if (failures.length > 0) throw new Error(`cannot import ${r.declaration.name.toLowerCase()} ${id}: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
      return result.inputs ?? news;
    };
    try {
      const imported = (await this.#run(r, "import", [id, check], lines)) as { id: string; outputs: Props; inputs: Props };
      const made = this.#newState(r, imported.outputs, {}, null, imported.id);
      return { imported: [{ typeName, state: made.state, private: writePrivate({ hidden: made.hidden }) }], diagnostics: this.#said(lines) };
    } catch (e) {
      return { imported: [], diagnostics: [...this.#said(lines), error(`${typeName}: ${messageOf(e)}`)] };
    }
  }

  async readDataSource(typeName: string, config: TfObject): Promise<{ state: TfObject | null; diagnostics?: readonly Diagnostic[] }> {
    const d = TERRAFORM_DATA_SOURCES.get(typeName);
    if (!d) return { state: null, diagnostics: [error(`certreseller: unknown data source ${JSON.stringify(typeName)}`)] };
    const lines: Line[] = [];
    const args: Props = {};
    for (const [attribute, a] of d.inputs) {
      const value = fromTf(a.declaration.type, config[attribute]);
      if (value !== undefined) args[a.name] = value;
    }
    try {
      const ctx = createContext({ type: d.declaration.name, settings: this.#settings(), sink: (level, line) => lines.push({ level, line }) });
      const result = await runInvoke(ctx, d.declaration.token, args);
      const state: Record<string, TfValue> = {};
      for (const attribute of d.inputs.keys()) state[attribute] = config[attribute] ?? null;
      for (const [attribute, a] of d.outputs) state[attribute] = toTf(a.declaration.type, result[a.name]);
      return { state, diagnostics: this.#said(lines) };
    } catch (e) {
      return { state: null, diagnostics: [...this.#said(lines), error(`${typeName}: ${messageOf(e)}`)] };
    }
  }

  async stop(): Promise<string | undefined> {
    // No CreateOrder leaves this process from now on; what is in flight finishes and is recorded (the journal, the state it answers).
    this.#stopped = "Terraform asked the provider to stop (Ctrl-C or SIGTERM)";
    stopPurchases(`${this.#stopped}, so nothing could record a new purchase in state`);
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
    return undefined;
  }
}

/**
 * The provider Terraform's calls reach (the wire half decodes and encodes
 * them). `env` and `cwd`: where Terraform's workspace and backend are read
 * (default: this process's; Terraform starts the provider in the root module).
 *
 * @example
 * const provider = createProvider();
 * await provider.configure({ api_key: "ak_1:s", base_url: sandboxUrl, ... }, "1.13.0");
 * const plan = await provider.planResourceChange({ typeName: "certreseller_order", priorState: null, proposedNewState: config, config });
 */
export function createProvider(options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): TerraformProvider {
  const provider = new CertresellerTerraform(options);
  // Every diagnostic in Terraform's words, and the last line of defence, as the handlers' log has: none carries the API key, whatever an upstream message echoed.
  return new Proxy(provider, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        return result instanceof Promise ? result.then((answer) => scrubbed(answer, provider.secrets())) : result;
      };
    },
  });
}

/** The declared camelCase names (with a capital: a plain word such as `domain` reads the same) the handlers' messages may name. */
const CAMEL_NAMES: readonly string[] = [
  ...new Set([...TERRAFORM_RESOURCES.values()].flatMap((r) => [...r.attributes.values()].map((a) => a.name)).filter((name) => /[A-Z]/.test(name))),
];

/**
 * `answer` with its diagnostics in a Terraform user's words (names.ts's
 * `terraformWords`) and every secret replaced by `***` (a diagnostics list,
 * or an answer holding one).
 */
function scrubbed<T>(answer: T, secrets: readonly string[]): T {
  const scrub = (text: string | undefined) => (text === undefined ? undefined : secrets.reduce((t, secret) => t.split(secret).join("***"), terraformWords(text, CAMEL_NAMES)));
  const clean = (list: readonly Diagnostic[]) => list.map((d) => ({ ...d, summary: scrub(d.summary)!, ...(d.detail !== undefined ? { detail: scrub(d.detail) } : {}) }));
  if (Array.isArray(answer)) return clean(answer as readonly Diagnostic[]) as T;
  if (answer && typeof answer === "object" && Array.isArray((answer as { diagnostics?: unknown }).diagnostics)) {
    return { ...answer, diagnostics: clean((answer as unknown as { diagnostics: readonly Diagnostic[] }).diagnostics) };
  }
  return answer;
}
