/**
 * The StackJournal every TypeScript program gets: registered once per run,
 * and a dependency of every Order.
 */
import * as pulumi from "@pulumi/pulumi";
import { StackJournal } from "../resources/stack-journal/resource.js";

/** The name of the StackJournal a TypeScript program gets. */
export const STACK_JOURNAL_NAME = "certreseller-journal";

const ofRun = new WeakMap<object, StackJournal>();

/**
 * This run's StackJournal, registered the first time it is asked for (when
 * the program loads the package, or at the first Order of an Automation API
 * inline program); undefined outside a Pulumi program. Every Order depends
 * on it, so it is in state before any purchase and deleted after every Order.
 */
export function stackJournalOfRun(): StackJournal | undefined {
  let stack: pulumi.Resource | undefined;
  try {
    stack = pulumi.runtime.getStackResource();
  } catch {
    return undefined;
  }
  if (!stack) return undefined;
  let journal = ofRun.get(stack);
  if (!journal) {
    journal = new StackJournal(STACK_JOURNAL_NAME, {});
    ofRun.set(stack, journal);
  }
  return journal;
}
