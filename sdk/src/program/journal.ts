// Program side of the purchase journal: the scope each Order sends, and the
// end-of-program check for paid orders that no Order of the stack owns.
import * as pulumi from "@pulumi/pulumi";
import { readSettings } from "../provider/config.js";
import { PurchaseJournal } from "../journal/journal.js";
import { programScope } from "../journal/key.js";
import { entriesOfStack } from "../journal/stack-entries.js";
import { openJournal } from "../journal/open.js";

/** `org=<organisation>` of the running stack (`pulumi.getOrganization()`; `organization` for self-managed backends). */
export function orderJournalScope(): string {
  let organization: string | undefined;
  try {
    organization = pulumi.getOrganization();
  } catch {
    // Unit tests without mocks have no organisation.
  }
  return programScope(organization);
}

/** One watch per run: an Automation API process runs many programs, each under its own stack resource. */
const watches = new WeakMap<object, (string | Promise<string>)[]>();

/** How long the orphan check may take before it is given up (it never holds a run longer). */
const CHECK_TIMEOUT_MS = 10_000;

interface Settled {
  promise(): Promise<unknown>;
}

/**
 * Registers the Order's URN with this run's orphan check. The first Order of
 * a run starts the check: once the program has finished (the stack
 * resource's outputs settle, so every Order has been constructed), the
 * journal's entries of this organisation, project and stack that no
 * constructed Order owns are reported as warnings. The run waits for the
 * check (an RPC keep-alive), at most {@link CHECK_TIMEOUT_MS}; any failure
 * is ignored: the check is advice, never a reason to fail a run.
 */
export function watchJournalOrphans(_order: pulumi.Resource, urn: string | Promise<string>): void {
  watch(urn);
}

/**
 * Starts this run's orphan check without an Order: the package calls it when
 * a program loads it, so that a program that no longer declares any Order
 * (the only one removed after a killed `up`, say) is still told about the
 * stack's paid orders that no Order holds. Outside a program it does nothing.
 */
export function watchJournalOrphansOfRun(): void {
  watch(undefined);
}

function watch(urn: string | Promise<string> | undefined): void {
  try {
    const stack = pulumi.runtime.getStackResource() as (pulumi.Resource & { outputs?: Settled }) | undefined;
    if (!stack || typeof stack.outputs?.promise !== "function") return;
    const known = watches.get(stack);
    if (known) {
      if (urn !== undefined) known.push(urn);
      return;
    }
    const urns = urn === undefined ? [] : [urn];
    watches.set(stack, urns);
    const done = pulumi.runtime.rpcKeepAlive();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CHECK_TIMEOUT_MS);
    });
    const check = stack.outputs
      .promise()
      .then(async () => {
        const owned = await Promise.all(urns);
        for (const warning of await orphanWarnings(new Set(owned.filter((u): u is string => typeof u === "string")))) {
          await pulumi.log.warn(warning);
        }
      })
      .catch(() => undefined);
    void Promise.race([check, timeout.then(() => timer && clearTimeout(timer))]).finally(() => {
      if (timer) clearTimeout(timer);
      done();
    });
    // Do not hold the timer open after the check: the race above ends first.
    timeout.finally(() => undefined);
  } catch {
    // Advice only.
  }
}

/**
 * The warnings for this stack's journal entries that no Order in `owned`
 * (URNs) holds: a paid order (an order number) or a purchase whose answer
 * was lost. Entries of other organisations, projects or stacks are not
 * this stack's business.
 */
export async function orphanWarnings(
  owned: ReadonlySet<string>,
  stack: { project: string; stack: string; organization?: string } = {
    project: pulumi.getProject(),
    stack: pulumi.getStack(),
    organization: safeOrganization(),
  },
  journal: PurchaseJournal = openJournal(readSettings({ get: (key) => new pulumi.Config("certreseller").get(key.slice(key.indexOf(":") + 1)) })),
): Promise<string[]> {
  const warnings: string[] = [];
  // A declared resource's entries under several backend fingerprints: one may be a second purchase of it (a
  // backend written two ways), or another backend's stack of the same name. The provider resolves one such
  // entry at create time; more than one is reported here, since the program cannot know its own fingerprint.
  const backendsOf = new Map<string, { id: string; location: string; what: string }[]>();
  for (const { id, location, entry, urn, organization, backend } of await entriesOfStack(journal, stack)) {
    if (organization !== undefined && stack.organization !== undefined && organization !== stack.organization) continue;
    if (owned.has(urn)) {
      const what = entry.orderNo ? `order ${entry.orderNo}` : `a lost answer of ${entry.intentAt}`;
      backendsOf.set(urn, [...(backendsOf.get(urn) ?? []), { id, location, what: `${what} (backend ${backend ?? "not recorded"})` }]);
      continue;
    }
    const what = entry.orderNo
      ? `holds PAID order ${entry.orderNo} (${entry.domain}, ${entry.productCode}, bought ${entry.orderedAt})`
      : `holds a purchase of ${entry.domain} (${entry.productCode}) sent ${entry.intentAt} whose answer was lost (your account MAY have been charged)`;
    warnings.push(
      `certreseller: the purchase journal ${what} for ${urn.slice(urn.lastIndexOf("::") + 2)}, and no Order in this stack declares that resource. ` +
        `Keep it: declare an Order with \`adoptOrderNo${entry.orderNo ? `: "${entry.orderNo}"` : ""}\`; or cancel it with the reseller and remove the entry ` +
        `(\`${journal.command(`rm ${id}`)}\` deletes ${location}). \`${journal.command("ls")}\` lists every entry with its state at the service.`,
    );
  }
  for (const [urn, entries] of backendsOf) {
    if (entries.length < 2) continue;
    warnings.push(
      `certreseller: the purchase journal holds ${entries.length} entries for ${urn.slice(urn.lastIndexOf("::") + 2)} under different backend fingerprints: ` +
        `${entries.map((e) => `${e.what} at ${e.location}`).join("; ")}. Only one can be this stack's, and a create of this Order stops before buying while two remain. ` +
        `\`${journal.command("ls")}\` shows each order's state at the service; cancel or adopt each, then remove the entries that are settled.`,
    );
  }
  return warnings;
}

function safeOrganization(): string | undefined {
  try {
    return pulumi.getOrganization();
  } catch {
    return undefined;
  }
}
