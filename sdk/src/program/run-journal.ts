/**
 * The StackJournal every TypeScript program gets: registered once per run,
 * and a dependency of every Order. The package root provides how to make one
 * (`index.ts`), so the Order's class reaches it without importing the
 * StackJournal's folder (which builds on the Order's money code).
 */
import * as pulumi from "@pulumi/pulumi";

/** The name of the StackJournal a TypeScript program gets. */
export const STACK_JOURNAL_NAME = "certreseller-journal";

let make: ((name: string) => pulumi.Resource) | undefined;
const ofRun = new WeakMap<object, pulumi.Resource>();

/** Called once by the package root with the StackJournal's constructor. */
export function provideStackJournal(factory: (name: string) => pulumi.Resource): void {
  make = factory;
}

/**
 * This run's StackJournal, registered the first time it is asked for (when
 * the program loads the package, or at the first Order of an Automation API
 * inline program); undefined outside a Pulumi program. Every Order depends
 * on it, so it is in state before any purchase and deleted after every Order.
 */
export function stackJournalOfRun(): pulumi.Resource | undefined {
  if (!make) return undefined;
  let stack: pulumi.Resource | undefined;
  try {
    stack = pulumi.runtime.getStackResource();
  } catch {
    return undefined;
  }
  if (!stack) return undefined;
  let journal = ofRun.get(stack);
  if (!journal) {
    journal = make(STACK_JOURNAL_NAME);
    ofRun.set(stack, journal);
  }
  return journal;
}
