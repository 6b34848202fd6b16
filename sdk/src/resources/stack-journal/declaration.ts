/**
 * The `StackJournal` resource as one declaration: the stack's hold on the
 * purchase journal. It buys nothing and sends nothing when created; its
 * delete (at `pulumi destroy`) refunds the paid orders whose create the
 * engine never recorded (a killed `up`), which no Order's delete can reach.
 */
import * as t from "../../schema/property.js";

export const STACK_JOURNAL_PROPERTIES = {
  location: t.output("Where the purchase journal is (a folder, or a bucket URL), as the provider read its settings when this resource was created.", t.string, {
    required: true,
  }),
} as const;

export const STACK_JOURNAL = t.resource("StackJournal", {
  description:
    "The stack's hold on the purchase journal: nothing is bought or sent when it is created. At `pulumi destroy` (or when it leaves the program) it " +
    "refunds each paid order of this stack whose create the engine never recorded (a killed `up`: no Order holds it, so no Order's delete cancels it), " +
    "after the API shows the order live in the account that bought it, and names each purchase whose answer was lost. A preview warns about those " +
    "entries while no Order declares their resource. TypeScript programs get one automatically; programs through the provider plugin declare one.",
  properties: STACK_JOURNAL_PROPERTIES,
  example: `
// TypeScript programs get one automatically, the first time the program loads the package.
const journal = new certs.StackJournal("certreseller-journal", {});`,
});
