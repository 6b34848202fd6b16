#!/usr/bin/env node
// `certreseller journal` — what the purchase journal holds, with each order's
// state at the service. Reads the provider's settings from the environment:
// CERTRESELLER_JOURNAL_URL (or CERTRESELLER_JOURNAL_DIR, default
// ~/.certreseller/journal), CERTRESELLER_API_KEY, CERTRESELLER_BASE_URL.
// Only GetRecord is called: never a call that moves money.
import { describeCertStatus } from "../client/vocabulary.js";
import type { PartnerApi } from "../client/types.js";
import { openJournal } from "../journal/open.js";
import { parseEntryKey } from "../journal/key.js";
import { clientFor } from "../provider/client-cache.js";
import { readSettings } from "../provider/config.js";

const USAGE = `usage: certreseller journal [ls] [--json]    list the purchase journal's entries and their orders' states
       certreseller journal rm <entry-id>        remove one entry (after you cancelled or adopted its order)

Settings (as the provider reads them): CERTRESELLER_JOURNAL_URL (s3://bucket/prefix, with AWS_* credentials)
or CERTRESELLER_JOURNAL_DIR (default ~/.certreseller/journal); CERTRESELLER_API_KEY and CERTRESELLER_BASE_URL
to show each order's state (GetRecord only).`;

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

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  const [command, sub = "ls", ...rest] = argv;
  if (command !== "journal" || argv.includes("--help") || argv.includes("-h")) {
    out(USAGE);
    return command === "journal" || argv.includes("--help") || argv.includes("-h") ? 0 : 2;
  }
  const settings = readSettings(undefined, env);
  const journal = openJournal(settings, env);
  if (sub === "rm") {
    const id = rest[0];
    if (!id || !/^[0-9a-f]{32}$/.test(id)) {
      out(`certreseller journal rm: give the entry id (32 hex digits) that \`certreseller journal\` lists\n${USAGE}`);
      return 2;
    }
    if (!(await journal.remove(`${id}.json`))) {
      out(
        `certreseller journal rm: no entry ${id} in ${journal.location}. If the stack sets certreseller:journalUrl or ` +
          "certreseller:journalDir, give the same location here (CERTRESELLER_JOURNAL_URL / CERTRESELLER_JOURNAL_DIR): this command reads only the environment.",
      );
      return 1;
    }
    out(`removed ${journal.store.locationOf(`${id}.json`)}`);
    return 0;
  }
  if (sub !== "ls" && sub !== "--json") {
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
  if (argv.includes("--json")) {
    out(JSON.stringify({ journal: journal.location, entries: rows }, null, 2));
    return 0;
  }
  out(`purchase journal ${journal.location}: ${rows.length} entr${rows.length === 1 ? "y" : "ies"}`);
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
      "An entry stays while a create has not finished. An entry no Order of its stack owns is an orphan: adopt its order " +
        "(`adoptOrderNo` on an Order) or cancel it with the reseller, then `certreseller journal rm <id>`.",
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
