/**
 * Adapters from what the engine prints to {@link MoneyStep}s: the
 * `pulumi preview --json` digest (each step carries `oldState` with the old
 * outputs and `newState` with the checked inputs) and the Automation API's
 * engine events (`resourcePreEvent.metadata`, same content).
 */
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
