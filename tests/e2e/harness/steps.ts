import type { EngineEvent } from "@pulumi/pulumi/automation";

/**
 * `{ "<Type>:<name>": "<op>" }` (e.g. `"Order:site"`) for every step of a run
 * that is not `same`, from the engine's events. Keyed by type too: a program
 * may give an Order and its Validation the same name.
 */
export function changedSteps(events: EngineEvent[]): Record<string, string> {
  const steps: Record<string, string> = {};
  for (const event of events) {
    const metadata = event.resourcePreEvent?.metadata;
    if (!metadata || metadata.op === "same") continue;
    if (metadata.type.startsWith("pulumi:")) continue;
    const name = `${metadata.type.slice(metadata.type.lastIndexOf(":") + 1)}:${metadata.urn.slice(metadata.urn.lastIndexOf("::") + 2)}`;
    // A replacement shows as create-replacement + replace + delete-replaced; name it once.
    const op = ["create-replacement", "delete-replaced", "replace"].includes(metadata.op) ? "replace" : metadata.op;
    steps[name] = op;
  }
  return steps;
}
