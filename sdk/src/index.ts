// First: an older Node.js is refused with a message saying which runs and which is needed, before undici loads.
import "./node-version.js";
export * from "./client/index.js";
// Every resource class, with its argument and output types (from the registry: `npm run generate`).
export * from "./resources.generated.js";
export type { OrderPriceState } from "./resources/order/state.js";
export * as testing from "./sandbox-records/index.js";
export * from "./functions/index.js";

// A program that loads the package is told about its stack's paid orders that no Order holds, even with no Order left.
import { watchJournalOrphansOfRun } from "./program/journal.js";
watchJournalOrphansOfRun();
// And its StackJournal, whose delete refunds what a killed `up` bought and never recorded.
import { provideStackJournal, stackJournalOfRun } from "./program/run-journal.js";
import { StackJournal } from "./resources/stack-journal/resource.js";
provideStackJournal((name) => new StackJournal(name, {}));
stackJournalOfRun();
