#!/usr/bin/env node
// `certreseller journal` — what the purchase journal holds, with each order's
// state at the service. Reads the journal the provider would: the one
// CERTRESELLER_JOURNAL_URL / CERTRESELLER_JOURNAL_DIR name, else the selected
// stack's (journal-location.ts), else ~/.certreseller/journal; and
// CERTRESELLER_API_KEY, CERTRESELLER_BASE_URL for the states. Only GetRecord
// is called: never a call that moves money.
import { describeCertStatus } from "../client/vocabulary.js";
import type { PartnerApi } from "../client/types.js";
import { journalCommandLine } from "../journal/command-line.js";
import { openJournal, resolveJournal } from "../journal/open.js";
import { parseEntryKey } from "../journal/key.js";
import { clientFor } from "../provider/client-cache.js";
import { readSettings } from "../provider/config.js";
import { journalLocation } from "./journal-location.js";

const USAGE = `usage: certreseller journal [ls] [--json] [--stack <name>]    list the purchase journal's entries and their orders' states
       certreseller journal rm <entry-id> [--stack <name>]        remove one entry (after you cancelled or adopted its order)

The journal: CERTRESELLER_JOURNAL_URL (s3://bucket/prefix, with AWS_* credentials) or CERTRESELLER_JOURNAL_DIR
when set; else, in a Pulumi project's folder, the selected stack's (or --stack's) certreseller:journalUrl or
certreseller:journalDir, as its Orders use them; else ~/.certreseller/journal. The first line says which, and why.
CERTRESELLER_API_KEY and CERTRESELLER_BASE_URL to show each order's state (GetRecord only).`;

interface Row {
  id: string;
  location: string;
  resource?: string;
  organization?: string;
  domain?: string;
  productCode?: string;
  orderNo?: string;
  intentAt?: string;
  orderedAt?: string;
  /** What the service says about the order, or why it could not say. */
  state: string;
  error?: string;
}

async function stateOf(api: PartnerApi | undefined, orderNo: string | undefined): Promise<string> {
  if (!orderNo) return "answer lost: MAY have been charged (look for the order in your reseller account)";
  if (!api) return "unknown (set CERTRESELLER_API_KEY and CERTRESELLER_BASE_URL to ask the service)";
  try {
    const record = await api.getRecord({ orderNo });
    return `cert status ${record.certStatus}: ${describeCertStatus(record.certStatus)}`;
  } catch (error) {
    const e = error as { kind?: string; message?: string };
    return e.kind === "not_found" ? "not found for this API key (gone, or bought by another account)" : `unknown (${e.kind ?? e.message ?? String(error)})`;
  }
}

/** The arguments without `--json` and `--stack <name>` (or `--stack=<name>`, `-s <name>`), and those options. */
function parseArgs(argv: readonly string[]): { words: string[]; json: boolean; stack?: string; bad?: string } {
  const words: string[] = [];
  let json = false;
  let stack: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--json") json = true;
    else if (arg === "--stack" || arg === "-s") {
      stack = argv[++i];
      if (!stack) return { words, json, bad: `${arg} needs a stack name` };
    } else if (arg.startsWith("--stack=")) stack = arg.slice("--stack=".length);
    else words.push(arg);
  }
  return { words, json, ...(stack ? { stack } : {}) };
}

export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  cwd: string = process.cwd(),
): Promise<number> {
  const { words, json, stack, bad } = parseArgs(argv);
  const [command, sub = "ls", ...rest] = words;
  if (command !== "journal" || argv.includes("--help") || argv.includes("-h")) {
    out(USAGE);
    return command === "journal" || argv.includes("--help") || argv.includes("-h") ? 0 : 2;
  }
  if (bad) {
    out(`certreseller journal: ${bad}\n${USAGE}`);
    return 2;
  }
  const chosen = journalLocation(env, cwd, stack);
  const { journalUrl: _fromEnv, ...fromEnv } = readSettings(undefined, env);
  const settings = {
    ...fromEnv,
    journalDir: chosen.journalDir,
    journalDirDefaulted: chosen.journalDirDefaulted === true,
    ...(chosen.journalUrl ? { journalUrl: chosen.journalUrl } : {}),
  };
  const resolved = resolveJournal(settings, env, chosen.backend);
  const journal = openJournal(settings, env, chosen.backend);
  // With no setting, a bucket backend keeps the journal beside its state: say so, and why.
  const where = `${journal.location} (from ${chosen.journalDirDefaulted && resolved.url ? `${resolved.why}; ${chosen.source.replace(/^the default, as /, "")}` : chosen.source})`;
  if (sub === "rm") {
    const id = rest[0];
    if (!id || !/^[0-9a-f]{32}$/.test(id)) {
      out(`certreseller journal rm: give the entry id (32 hex digits) that \`certreseller journal\` lists\n${USAGE}`);
      return 2;
    }
    if (!(await journal.remove(`${id}.json`))) {
      out(
        `certreseller journal rm: no entry ${id} in the purchase journal ${where}. If the entry is in another journal, name it: ` +
          "CERTRESELLER_JOURNAL_URL or CERTRESELLER_JOURNAL_DIR, or --stack <name> in the stack's project folder (the command the provider printed gives its location).",
      );
      for (const note of chosen.notes) out(`note: ${note}`);
      return 1;
    }
    out(`removed ${journal.store.locationOf(`${id}.json`)} (purchase journal ${where})`);
    return 0;
  }
  if (sub !== "ls") {
    out(USAGE);
    return 2;
  }
  const api = settings.apiKey && settings.baseUrl ? clientFor(settings) : undefined;
  const rows: Row[] = [];
  for (const { name, location, entry, error } of await journal.list()) {
    const id = name.replace(/\.json$/, "");
    if (!entry) {
      rows.push({ id, location, state: "unreadable", error });
      continue;
    }
    const key = parseEntryKey(entry.key);
    rows.push({
      id,
      location,
      resource: entry.urn ?? key.urn,
      organization: key.organization,
      domain: entry.domain,
      productCode: entry.productCode,
      orderNo: entry.orderNo,
      intentAt: entry.intentAt,
      orderedAt: entry.orderedAt,
      state: await stateOf(api, entry.orderNo),
    });
  }
  if (json) {
    out(JSON.stringify({ journal: journal.location, source: chosen.source, notes: chosen.notes, entries: rows }, null, 2));
    return 0;
  }
  out(`purchase journal ${where}: ${rows.length} entr${rows.length === 1 ? "y" : "ies"}`);
  for (const note of chosen.notes) out(`note: ${note}`);
  for (const row of rows) {
    out("");
    out(`${row.id}  ${row.location}`);
    if (row.error) {
      out(`  ${row.error}`);
      continue;
    }
    out(`  resource: ${row.resource}${row.organization ? ` (organisation ${row.organization})` : ""}`);
    out(`  purchase: ${row.domain} (${row.productCode}), intent ${row.intentAt}`);
    out(`  order:    ${row.orderNo ? `${row.orderNo}, bought ${row.orderedAt}` : "none recorded"}`);
    out(`  state:    ${row.state}`);
  }
  if (rows.length > 0) {
    out("");
    out(
      "Each entry is a purchase whose order its stack's state may not hold yet: written before CreateOrder, given the order number " +
        "when CreateOrder answers, and removed by its Order's next preview, up, refresh or destroy once the engine holds that order. " +
        "An entry with no order number is a CreateOrder whose answer was lost: that account MAY have been charged. An entry no Order " +
        "of its stack declares is an orphan: adopt its order (`adoptOrderNo` on an Order) or cancel it with the reseller, then " +
        `\`${journalCommandLine(`rm <id>${stack ? ` --stack ${stack}` : ""}`)}\`.`,
    );
  }
  return 0;
}

/**
 * The command on this process's arguments: prints to stdout/stderr and sets
 * the exit code. What the `certreseller` bin (`bin/certreseller.js`) and
 * `node dist/cmd/certreseller.js` run.
 *
 * @example
 * require("pulumi-certreseller/dist/cmd/certreseller.js").runFromCommandLine();
 */
export function runFromCommandLine(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  return main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`certreseller: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

if (require.main === module) void runFromCommandLine();
