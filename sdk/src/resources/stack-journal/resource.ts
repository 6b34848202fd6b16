import * as pulumi from "@pulumi/pulumi";
import { orderJournalScope } from "../../program/journal.js";
import { providerText } from "../../program/provider-text.js";
import { quietRegistration } from "../../program/quiet-registration.js";
import { resourceUrnInput } from "../../program/resource-urn.js";
import { programInputs } from "./presentation.js";
import type { StackJournalArgs, StackJournalProperties } from "./properties.generated.js";

export type { StackJournalArgs, StackJournalProperties } from "./properties.generated.js";

// The class's outputs, as declared (declaration merging: the engine sets them).
export interface StackJournal extends StackJournalProperties {}

/**
 * The stack's hold on the purchase journal: its delete, at `pulumi destroy`,
 * refunds the paid orders whose create the engine never recorded (a killed
 * `up`). A TypeScript program gets one automatically (`program/run-journal.ts`);
 * declare one yourself only in an Automation API program that registers no Order.
 *
 * @example
 * const journal = new certs.StackJournal("certreseller-journal", {});
 */
export class StackJournal extends pulumi.CustomResource {
  static readonly __pulumiType = "pulumi-nodejs:dynamic/certreseller:StackJournal";

  constructor(name: string, _args: StackJournalArgs = {}, opts?: pulumi.CustomResourceOptions) {
    const urn = resourceUrnInput(name, StackJournal.__pulumiType, opts?.parent);
    using _registration = quietRegistration();
    super(
      StackJournal.__pulumiType,
      name,
      // The program's end-of-run check names orphans in TypeScript (program/journal.ts): the check stays quiet.
      { location: undefined, ...programInputs(urn, orderJournalScope()), orphanReport: "program", __provider: providerText("stack-journal") },
      opts,
    );
  }
}
