/**
 * Adding a record so that the resource owns exactly what it added: every
 * add carries RFC 2136 prerequisites that hold only when the add changes the
 * zone the way the resource believes, and a record the server already held
 * is recorded as pre-existing (never deleted later), never as added.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { conflictingRecords, DnsUpdateError, sharedTtl } from "../../dns/errors.js";
import { rdataOf, type Prerequisite, type RecordData } from "../../dns/message.js";
import { readRecords, sendUpdate, type RecordAtName, type UpdateOptions, type UpdateTarget } from "../../dns/update.js";
import type { Transport } from "../../dns/transport.js";

/**
 * What publishing did: `preExisting` when the server already held this very
 * record, so nothing was added. `unsure`: an unanswered copy of the update
 * went out before the record was found, so it may be the resource's own
 * after all; it is kept as pre-existing all the same (never deleting what
 * may not be its own).
 */
export type Published = { preExisting: false; transport: Transport } | { preExisting: true; unsure: boolean };

/**
 * Reads-and-retries after prerequisites fail: other writers at the same
 * name (another record of the same stack, created in parallel) change it
 * between a read and the update.
 */
const TRIES = 5;

/**
 * Adds `record` in one UPDATE whose prerequisites make the add mean what the
 * resource records, deleting `replacing` (this resource's own previous RR)
 * in the same UPDATE:
 *
 * - TXT: the name holds no CNAME, and the TXT RRset is exactly what was read
 *   before (RFC 2136 has no "this RR does not exist" prerequisite; "the RRset
 *   is exactly these RRs", 2.4.2, says it for one value). The first try
 *   assumes the name holds no TXT (or only `replacing`); when that fails, the
 *   name is read back and the update sent again against what was read.
 * - CNAME: the name holds nothing (2.4.5), or exactly `replacing`.
 *
 * The very record already at the name is pre-existing: nothing is added (and
 * `replacing` is still deleted). So is one found after an update that went
 * out twice (its first copy unanswered): that copy may have added it, or
 * not; the record is then kept, never deleted ({@link Published}). A CNAME beside other records, or a TXT at a
 * CNAME, is refused with the records found, and nothing is changed. So is a
 * new TTL for a TXT value whose RRset also holds values that are not the
 * resource's (one TTL per RRset: theirs would change too); the first try's
 * prerequisite (the RRset is exactly `replacing`) fails whenever there are any,
 * so they are always read before such an update goes through. DNSSEC records
 * in the answer (a signed zone) are not records at the name ({@link readRecords}).
 *
 * @example
 * await publish(target, { fqdn: "_dnsauth.example.com", type: "TXT", value: "token", ttl: 60 }) // { preExisting: false, transport: "udp" }
 */
export async function publish(target: UpdateTarget, record: RecordData, replacing?: RecordData, options?: UpdateOptions): Promise<Published> {
  const ours = rdataOf(record);
  // A new TTL for the same RR: finding it is finding this resource's own.
  const sameRr = replacing !== undefined && replacing.type === record.type && rdataOf(replacing).equals(ours);
  let found: RecordAtName[] | undefined;
  // The last update went out more than once, unanswered at first: a copy of it may have added the record.
  let unsure = false;
  for (let attempt = 1; ; attempt++) {
    if (found) {
      if (!sameRr && found.some((r) => r.type === record.type && r.rdata?.equals(ours))) {
        if (replacing) await sendUpdate(target, { deletes: [replacing], adds: [] }, options);
        return { preExisting: true, unsure };
      }
      const shared = othersAtAnotherTtl(record, found, replacing);
      if (shared.length > 0) {
        throw sharedTtl({ ...target, fqdn: record.fqdn }, { ttl: record.ttl, rrsetTtl: shared[0]!.ttl, others: shared.map((r) => r.text) });
      }
      const conflicts = found.filter((r) => standsInTheWay(record, r, replacing));
      if (conflicts.length > 0) throw conflictingRecords({ ...target, fqdn: record.fqdn, type: record.type }, conflicts.map((r) => `${r.type} ${r.text}`.trim()));
    }
    try {
      const { transport } = await sendUpdate(target, { prerequisites: prerequisitesFor(record, found, replacing), deletes: replacing ? [replacing] : [], adds: [record] }, options);
      return { preExisting: false, transport };
    } catch (error) {
      if (!(error instanceof DnsUpdateError && error.code === "PREREQUISITE")) throw error;
      unsure = error.mayHaveApplied;
      if (attempt === TRIES) {
        throw new DnsUpdateError(`${error.message}; ${TRIES} tries in a row: the records at ${record.fqdn} kept changing while this update was made; nothing was added: run it again`, {
          code: "PREREQUISITE",
          settings: [],
          mayHaveApplied: false,
          cause: error,
        });
      }
    }
    // The name changed under us: read it, and wait a little so parallel writers interleave.
    found = await readRecords(target, record.fqdn, record.type === "TXT" ? "TXT" : "ANY", options);
    await sleep(Math.floor(Math.random() * 100 * attempt));
  }
}

/**
 * When this resource gives its own TXT value a new TTL: the TXT values at the
 * name it did not add whose TTL that would change (the server sets the TTL of
 * the whole RRset, RFC 2181 5.2). Empty for anything else, and when those
 * values have that TTL already.
 */
function othersAtAnotherTtl(record: RecordData, found: RecordAtName[], replacing: RecordData | undefined): RecordAtName[] {
  if (record.type !== "TXT" || replacing === undefined || replacing.ttl === record.ttl) return [];
  const ownOld = rdataOf(replacing);
  const ownNew = rdataOf(record);
  return found.filter((r) => r.type === "TXT" && !r.rdata?.equals(ownOld) && !r.rdata?.equals(ownNew) && r.ttl !== record.ttl);
}

/** Whether `existing` stands in the way of adding `record` (the RR being replaced never does). */
function standsInTheWay(record: RecordData, existing: RecordAtName, replacing: RecordData | undefined): boolean {
  if (replacing && existing.type === replacing.type && existing.rdata?.equals(rdataOf(replacing))) return false;
  return record.type === "CNAME" || existing.type === "CNAME";
}

/** The prerequisites for adding `record` to a name last read as `found` (not read yet: holding nothing, or only `replacing`). */
function prerequisitesFor(record: RecordData, found: RecordAtName[] | undefined, replacing: RecordData | undefined): Prerequisite[] {
  const { fqdn } = record;
  if (record.type === "CNAME") {
    const held = found ? found.length > 0 : replacing !== undefined;
    return [held && replacing ? { kind: "rrset-equals", fqdn, type: "CNAME", rdata: [rdataOf(replacing)] } : { kind: "name-unused", fqdn }];
  }
  const txt = found ? found.filter((r) => r.type === "TXT").map((r) => r.rdata!) : replacing ? [rdataOf(replacing)] : [];
  return [{ kind: "rrset-absent", fqdn, type: "CNAME" }, txt.length > 0 ? { kind: "rrset-equals", fqdn, type: "TXT", rdata: txt } : { kind: "rrset-absent", fqdn, type: "TXT" }];
}
