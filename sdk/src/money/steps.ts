/**
 * Adapters from what the engines print to {@link MoneyStep}s: the
 * `pulumi preview --json` digest (each step carries `oldState` with the old
 * outputs and `newState` with the checked inputs), the Automation API's
 * engine events (`resourcePreEvent.metadata`, same content), and a saved
 * Terraform or OpenTofu plan's `show -json` (`resource_changes[]`: the state
 * before, the planned state after, what is unknown at plan).
 */
import { UNKNOWN, isUnknown } from "../provider/unknown.js";
import type { MoneyStep } from "./summary.js";

type Json = Record<string, unknown>;

const record = (value: unknown): Json | undefined => (value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined);

/**
 * The steps of a `pulumi preview --json` digest.
 *
 * @example
 * ```ts
 * const steps = fromPreviewJson(JSON.parse(execFileSync("pulumi", ["preview", "--json"], { encoding: "utf8" })));
 * ```
 */
export function fromPreviewJson(digest: unknown): MoneyStep[] {
  const steps = record(digest)?.steps;
  if (!Array.isArray(steps)) return [];
  return steps.flatMap((raw): MoneyStep[] => {
    const step = record(raw);
    if (!step || typeof step.op !== "string" || typeof step.urn !== "string") return [];
    const oldState = record(step.oldState);
    const newState = record(step.newState);
    const type = String(newState?.type ?? oldState?.type ?? typeOfUrn(step.urn));
    return [{ op: step.op, urn: step.urn, type, old: record(oldState?.outputs), new: record(newState?.inputs), retainOnDelete: oldState?.retainOnDelete === true }];
  });
}

/**
 * The steps announced by Automation API engine events (`onEvent`).
 *
 * @example
 * ```ts
 * const events: EngineEvent[] = [];
 * await stack.preview({ onEvent: (e) => events.push(e) });
 * const summary = summarize(fromEngineEvents(events), new Date());
 * ```
 */
export function fromEngineEvents(events: unknown[]): MoneyStep[] {
  return events.flatMap((event): MoneyStep[] => {
    const metadata = record(record(record(event)?.resourcePreEvent)?.metadata);
    if (!metadata || typeof metadata.op !== "string" || typeof metadata.urn !== "string") return [];
    const oldState = record(metadata.old);
    const newState = record(metadata.new);
    return [
      {
        op: metadata.op,
        urn: metadata.urn,
        type: String(metadata.type ?? typeOfUrn(metadata.urn)),
        old: record(oldState?.outputs),
        new: record(newState?.inputs),
        retainOnDelete: oldState?.retainOnDelete === true,
      },
    ];
  });
}

/** `urn:pulumi:stack::project::<type>::<name>` → `<type>` (the last type of a parent chain). */
function typeOfUrn(urn: string): string {
  const parts = urn.split("::");
  const types = parts[parts.length - 2] ?? "";
  return types.slice(types.lastIndexOf("$") + 1);
}

/** Why a document is not a saved plan's `terraform show -json` (or `tofu show -json`) output, or undefined when it is one. */
function notAPlan(shown: Json | undefined): string | undefined {
  if (!shown || typeof shown.format_version !== "string") return "it is not `terraform show -json` output (no format_version)";
  if (shown.errored === true) return "the plan errored (Terraform saved it only to show what failed); fix the plan's errors and plan again";
  if (shown.planned_values === undefined && shown.values !== undefined) return "it is a state, not a plan: run `terraform show -json` on a saved plan (`terraform plan -out=tfplan`)";
  if (shown.resource_changes !== undefined && !Array.isArray(shown.resource_changes)) return "its resource_changes is not a list";
  if (shown.planned_values === undefined && shown.resource_changes === undefined) return "it holds neither planned_values nor resource_changes";
  return undefined;
}

/** `quoted_price` → `quotedPrice`: the handlers' names are the declarations' camelCase ones (`terraform/names.ts` maps them the other way). */
const camelCase = (name: string): string => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * A Terraform value in the handlers' names, with each place `after_unknown`
 * marks unknown replaced by the engine's placeholder: the one shape of
 * "not known at plan" `readOrderMoney` reads.
 */
function inHandlerTerms(value: unknown, unknown: unknown): unknown {
  if (unknown === true) return UNKNOWN;
  if (Array.isArray(value)) return value.map((v, i) => inHandlerTerms(v, Array.isArray(unknown) ? unknown[i] : undefined));
  const object = record(value);
  if (object === undefined && record(unknown) === undefined) return value;
  const mask = record(unknown) ?? {};
  const out: Json = {};
  // A value unknown at plan is absent from `after` and true in `after_unknown`: walk both.
  for (const key of new Set([...Object.keys(object ?? {}), ...Object.keys(mask)])) {
    const converted = inHandlerTerms(object?.[key], mask[key]);
    if (converted !== undefined && converted !== null) out[camelCase(key)] = converted;
  }
  return out;
}

/**
 * The steps of a saved Terraform or OpenTofu plan, as `terraform show -json
 * tfplan` prints it: one per `resource_changes[]` entry, named by its address.
 * `change.actions` maps to the engine's ops: `create`; `delete`; a replacement
 * (`["delete","create"]` or `["create","delete"]`) is a `create-replacement`
 * plus a `delete-replaced`; `forget` (a `removed` block with `destroy =
 * false`) leaves the order at the service, as `retainOnDelete` does; `update`,
 * `no-op` and `read` move no money. A planned create whose `order_no` is
 * already known resumes that order from the purchase journal (the provider
 * plans it known only then), so it is no charge. Throws, naming what is
 * wrong, on a document that is not a saved plan's.
 *
 * @example
 * ```ts
 * const shown = JSON.parse(execFileSync("tofu", ["show", "-json", "tfplan"], { encoding: "utf8" }));
 * const summary = summarize(fromTerraformPlan(shown), new Date());
 * ```
 */
export function fromTerraformPlan(shown: unknown): MoneyStep[] {
  const plan = record(shown);
  const problem = notAPlan(plan);
  if (problem) throw new Error(`not a saved Terraform plan: ${problem}`);
  const changes = (plan!.resource_changes ?? []) as unknown[];
  return changes.flatMap((raw): MoneyStep[] => {
    const entry = record(raw);
    const change = record(entry?.change);
    if (!entry || !change || entry.mode === "data" || typeof entry.type !== "string" || typeof entry.address !== "string") return [];
    const actions = Array.isArray(change.actions) ? change.actions.map(String) : [];
    const deposed = typeof entry.deposed === "string" ? ` (deposed object ${entry.deposed})` : "";
    const name = `${entry.address}${deposed}`;
    const old = record(inHandlerTerms(change.before, undefined));
    const planned = record(inHandlerTerms(change.after, change.after_unknown));
    // A known order number on a create is the order the purchase journal holds (provider.ts plans it only then); the same number as before is no resume.
    if (planned && typeof planned.orderNo === "string" && !isUnknown(planned.orderNo) && planned.orderNo !== old?.orderNo) planned.resumesOrderNo = planned.orderNo;
    const step = (op: string, extra: Partial<MoneyStep> = {}): MoneyStep => ({ op, urn: name, name, type: entry.type as string, old, new: planned, ...extra });
    const creates = actions.includes("create");
    const steps: MoneyStep[] = [];
    if (creates) steps.push(step(actions.includes("delete") || actions.includes("forget") ? "create-replacement" : "create"));
    if (actions.includes("delete")) steps.push(step(creates ? "delete-replaced" : "delete"));
    if (actions.includes("forget")) steps.push(step("delete", { retainOnDelete: true }));
    return steps;
  });
}
