import type { CaaProperty } from "../../rules/caa.js";
import { baseName, normaliseName } from "../../rules/names.js";
import { DnsLookupError } from "./errors.js";
import type { DnsLookup } from "./resolver.js";

/** A name's Relevant RRset (RFC 8659 section 3) and where it was found; `at` is absent when no name up the tree has CAA. */
export interface RelevantCaa {
  readonly at?: string;
  readonly rrset: readonly CaaProperty[];
  /**
   * Where the climb could not go on: the server answered for the names
   * below and refused this one (an authoritative server that does not serve
   * the parent zone, e.g. the TLD). Set only with an empty `rrset`.
   */
  readonly unanswered?: { readonly name: string; readonly error: DnsLookupError };
}

/** CAA RRsets by name (aliases followed), shared by the lookups of one check: sibling names climb through the same parents. */
export type CaaAnswers = Map<string, Promise<readonly CaaProperty[]>>;

/** Alias chains longer than this are a loop or a misconfiguration; resolvers give up too. */
const MAX_ALIASES = 8;

/**
 * RFC 8659's Relevant RRset for a name: its own CAA RRset when not empty,
 * else its parent's, and so on up to and including the top-level domain
 * (not the root), as a CA climbs. A wildcard is looked up at its base name.
 * Throws `DnsLookupError` when a server cannot answer: an unknown RRset is
 * not an empty one. One exception, reported in `unanswered` rather than
 * thrown: a server that answered for the names below and REFUSES a parent
 * (an authoritative server asked about a zone it does not serve, such as
 * the TLD); what lies above is then unknown, and the caller says so.
 *
 * A name that is an alias (CNAME) has its target's CAA RRset, as RFC 8659
 * has it; when the target has none, the climb goes on from the alias's
 * parent, not the target's. A recursive resolver follows the alias itself;
 * an authoritative server (`dnsResolvers` pointed at one) answers only the
 * CNAME, so the alias is followed here too.
 *
 * @example
 * await relevantCaaSet(lookup, "*.shop.example.com") // { at: "example.com", rrset: [{ flags: 0, tag: "issue", value: "letsencrypt.org" }] }
 */
export async function relevantCaaSet(lookup: DnsLookup, name: string, answers: CaaAnswers = new Map()): Promise<RelevantCaa> {
  const labels = baseName(normaliseName(name)).split(".");
  for (let i = 0; i < labels.length; i++) {
    const candidate = labels.slice(i).join(".");
    let rrset: readonly CaaProperty[];
    try {
      rrset = await caaAt(lookup, candidate, answers, 0);
    } catch (error) {
      if (i > 0 && error instanceof DnsLookupError && error.code === "EREFUSED") return { rrset: [], unanswered: { name: candidate, error } };
      throw error;
    }
    if (rrset.length > 0) return { at: candidate, rrset };
  }
  return { rrset: [] };
}

/** The CAA RRset at one name, following its alias when the server did not. */
function caaAt(lookup: DnsLookup, name: string, answers: CaaAnswers, depth: number): Promise<readonly CaaProperty[]> {
  let answer = answers.get(name);
  if (!answer) {
    answer = (async () => {
      const own = await lookup.caa(name);
      if (own.status !== "nodata" || depth >= MAX_ALIASES) return own.records;
      const alias = await lookup.cname(name);
      return alias.records.length > 0 ? caaAt(lookup, alias.records[0]!, answers, depth + 1) : [];
    })();
    answers.set(name, answer);
  }
  return answer;
}
