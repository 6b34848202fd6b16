/**
 * Why an RFC 2136 update failed, in words that name the setting to fix. The
 * settings are named as the `Rfc2136Record` inputs spell them (`server`,
 * `zone`, `tsigKeyName`, `tsigAlgorithm`, `tsigSecret`), which are also the
 * fields of {@link UpdateTarget}. A message never contains the secret.
 */

/** What an update is about, for its error messages (no secret in here). */
export interface UpdateDescription {
  /** `RFC 2136 update`, or `query` for a read-back. */
  request: string;
  /** `host:port` as configured. */
  server: string;
  zone: string;
  keyName: string;
  algorithm: string;
  /** What the update does: `add TXT _dnsauth.example.com`. */
  action: string;
  fqdn: string;
  type: string;
}

/** The answer's code: an RCODE name (`REFUSED`, `NOTAUTH`), a TSIG error (`BADSIG`, `BADKEY`, `BADTIME`), or what went wrong on this side. */
export type DnsUpdateErrorCode =
  | "REFUSED"
  | "NOTAUTH"
  | "NOTZONE"
  | "BADSIG"
  | "BADKEY"
  | "BADTIME"
  | "RCODE"
  | "PREREQUISITE"
  | "CONFLICT"
  | "SHARED_TTL"
  | "UNSIGNED"
  | "FORGED"
  | "NO_ANSWER"
  | "MALFORMED";

/**
 * An RFC 2136 update that failed. `settings` lists the inputs to look at;
 * `mayHaveApplied` is false when the server answered with an error (it
 * applied nothing: an update is all or nothing, RFC 2136 3.7) and true when
 * no trustworthy answer arrived.
 *
 * @example
 * try { await sendUpdate(target, changes); }
 * catch (e) { if (e instanceof DnsUpdateError && e.code === "BADSIG") console.error(e.settings); } // ["tsigSecret"]
 */
export class DnsUpdateError extends Error {
  override name = "DnsUpdateError";
  readonly code: DnsUpdateErrorCode;
  readonly settings: readonly string[];
  readonly mayHaveApplied: boolean;

  constructor(message: string, init: { code: DnsUpdateErrorCode; settings: readonly string[]; mayHaveApplied: boolean; cause?: unknown }) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.settings = init.settings;
    this.mayHaveApplied = init.mayHaveApplied;
  }
}

const at = (t: UpdateDescription) => `${t.request} (${t.action}) sent to ${t.server}`;
const answered = (code: DnsUpdateErrorCode, settings: readonly string[]) => ({ code, settings, mayHaveApplied: false });

/** RCODE REFUSED: the server serves the zone but its policy does not let this key make this change. */
export function updateRefused(t: UpdateDescription): DnsUpdateError {
  return new DnsUpdateError(
    `${at(t)}: the server refused the update for zone ${t.zone} (REFUSED): check \`zone\` (the zone that holds ${t.fqdn}) and that the server's ` +
      `update-policy/allow-update grants the key ${t.keyName} (\`tsigKeyName\`) ${t.type} updates at ${t.fqdn}`,
    answered("REFUSED", ["zone", "tsigKeyName"]),
  );
}

/** RCODE NOTAUTH without a TSIG error: the server is not authoritative (primary) for the zone named. */
export function notAuthoritative(t: UpdateDescription): DnsUpdateError {
  return new DnsUpdateError(
    `${at(t)}: the server is not authoritative for zone ${t.zone} (NOTAUTH): check \`zone\` (the apex of the zone that holds ${t.fqdn}, ` +
      `exactly as the server's zone statement names it) and \`server\` (the zone's primary server)`,
    answered("NOTAUTH", ["zone", "server"]),
  );
}

/** RCODE NOTZONE: the record's name is outside the zone named (the preview's check normally catches it first). */
export function outsideZone(t: UpdateDescription): DnsUpdateError {
  return new DnsUpdateError(`${at(t)}: ${t.fqdn} is not within zone ${t.zone} (NOTZONE): check \`fqdn\` and \`zone\``, answered("NOTZONE", ["fqdn", "zone"]));
}

/** TSIG error BADSIG: the server knows the key but the MAC does not verify with its secret. */
export function badSignature(t: UpdateDescription): DnsUpdateError {
  return new DnsUpdateError(
    `${at(t)}: the server rejected the TSIG signature of key ${t.keyName} (BADSIG): \`tsigSecret\` is not the secret the server holds for that key ` +
      `(use the base64 \`secret\` of its key statement; also check \`tsigAlgorithm\`, ${t.algorithm})`,
    answered("BADSIG", ["tsigSecret", "tsigAlgorithm"]),
  );
}

/** TSIG error BADKEY: the server has no key of that name and algorithm. */
export function unknownKey(t: UpdateDescription): DnsUpdateError {
  return new DnsUpdateError(
    `${at(t)}: the server does not know the TSIG key ${t.keyName} with algorithm ${t.algorithm} (BADKEY): check \`tsigKeyName\` ` +
      `(the key's name in the server's configuration) and \`tsigAlgorithm\` (the algorithm of that key statement)`,
    answered("BADKEY", ["tsigKeyName", "tsigAlgorithm"]),
  );
}

/** TSIG error BADTIME: the signature's time is outside the server's window: the two clocks differ. */
export function clockSkew(t: UpdateDescription, times: { signedAt: number; serverTime: number | undefined; fudge: number }): DnsUpdateError {
  const iso = (s: number) => new Date(s * 1000).toISOString();
  const server = times.serverTime === undefined ? "" : `, the server's ${iso(times.serverTime)}`;
  return new DnsUpdateError(
    `${at(t)}: the server rejected the TSIG time (BADTIME): the clocks differ by more than the ${times.fudge} s a signature allows ` +
      `(this machine's clock read ${iso(times.signedAt)}${server}): set both clocks right (NTP); no setting of the record fixes this`,
    answered("BADTIME", []),
  );
}

/** Any other RCODE: FORMERR, SERVFAIL, NOTIMP, a prerequisite code... */
export function updateFailed(t: UpdateDescription, rcode: string): DnsUpdateError {
  const hint: Record<string, string> = {
    FORMERR: "the server could not parse the update",
    SERVFAIL: "the server failed to apply it (see its log)",
    NOTIMP: "the server does not take dynamic updates at all: check `server`",
  };
  return new DnsUpdateError(`${at(t)}: the server answered ${rcode}${hint[rcode] ? `: ${hint[rcode]}` : ""}`, answered("RCODE", rcode === "NOTIMP" ? ["server"] : []));
}

/**
 * RFC 2136 3.2.5: a prerequisite of the update did not hold (YXDOMAIN,
 * YXRRSET, NXRRSET, NXDOMAIN), so the server applied nothing for the copy
 * it answered. `resent`: an earlier copy of the same update went out
 * unanswered and may have been applied (and made the prerequisites fail).
 * The caller reads the name and decides; the message is for when it cannot.
 */
export function prerequisiteFailed(t: UpdateDescription, rcode: string, resent: boolean): DnsUpdateError {
  const earlier = resent ? " (an earlier copy of it went unanswered and may have been applied)" : "";
  return new DnsUpdateError(`${at(t)}: the records at ${t.fqdn} are not what the update expected (${rcode}), so the server applied nothing${earlier}`, {
    code: "PREREQUISITE",
    settings: [],
    mayHaveApplied: resent,
  });
}

/**
 * The record cannot be added without taking over or hiding records that
 * were there before it (RFC 1034 3.6.2: a CNAME shares its name with no
 * other data). `existing` lists them: `CNAME other.example.net`, `TXT "v"`.
 */
export function conflictingRecords(t: Pick<UpdateDescription, "server" | "zone" | "fqdn" | "type">, existing: readonly string[]): DnsUpdateError {
  const why =
    t.type === "CNAME"
      ? "a CNAME cannot share its name with other records (RFC 1034 3.6.2), and records this resource did not add are never replaced"
      : "a name that is a CNAME holds no other records (RFC 1034 3.6.2), so the server would ignore the TXT record";
  return new DnsUpdateError(
    `${t.type} record at ${t.fqdn}: the zone ${t.zone} at ${t.server} already holds ${existing.join(", ")} there; ${why}. Nothing was sent to change it: ` +
      `remove the existing records at ${t.fqdn} yourself if they are stale, or check \`fqdn\` and \`type\``,
    { code: "CONFLICT", settings: ["fqdn", "type"], mayHaveApplied: false },
  );
}

/**
 * A new TTL for this resource's TXT value while its RRset also holds values
 * the resource did not add, at another TTL: an RRset has one TTL (RFC 2181
 * 5.2), so the server would change theirs too.
 *
 * @example
 * sharedTtl({ server, zone: "example.com", fqdn: "_dnsauth.example.com" }, { ttl: 300, rrsetTtl: 60, others: ['"v=spf1 -all"'] }).settings // ["ttl"]
 */
export function sharedTtl(t: Pick<UpdateDescription, "server" | "zone" | "fqdn">, change: { ttl: number; rrsetTtl: number; others: readonly string[] }): DnsUpdateError {
  const { ttl, rrsetTtl, others } = change;
  return new DnsUpdateError(
    `ttl: the TXT RRset at ${t.fqdn} (zone ${t.zone} at ${t.server}) also holds ${others.length === 1 ? "a value" : `${others.length} values`} this resource did not add ` +
      `(${others.join(", ")}), and an RRset has one TTL for all its values (RFC 2181 5.2): ttl ${ttl} would change theirs from ${rrsetTtl} too. Nothing was changed: ` +
      `keep \`ttl\` at ${rrsetTtl}, or change the TTL of the whole RRset at the server first and then set \`ttl\` to match`,
    { code: "SHARED_TTL", settings: ["ttl"], mayHaveApplied: false },
  );
}

/** A success (or an error the server should have signed) without a TSIG record: not trusted. */
export function unsignedAnswer(t: UpdateDescription, rcode: string): DnsUpdateError {
  return new DnsUpdateError(
    `${at(t)}: the answer (${rcode}) carries no TSIG signature, so it cannot be trusted; is \`server\` the zone's primary, and does it know key ${t.keyName}?`,
    { code: "UNSIGNED", settings: ["server"], mayHaveApplied: true },
  );
}

/** A signed answer whose signature does not verify with our key: someone else answered, or the answer was altered. */
export function forgedAnswer(t: UpdateDescription, why: string): DnsUpdateError {
  return new DnsUpdateError(`${at(t)}: the answer's TSIG signature does not verify (${why}); it was not trusted`, {
    code: "FORGED",
    settings: [],
    mayHaveApplied: true,
  });
}

/** No answer over UDP and TCP, or the connection failed. */
export function noAnswer(t: UpdateDescription, detail: string, cause: unknown): DnsUpdateError {
  return new DnsUpdateError(
    `${at(t)}: ${detail}: check \`server\` (host:port of the zone's primary server) and that it is reachable on that port over UDP and TCP`,
    { code: "NO_ANSWER", settings: ["server"], mayHaveApplied: true, cause },
  );
}

/** An answer that is not a well-formed DNS message. */
export function malformedAnswer(detail: string): DnsUpdateError {
  return new DnsUpdateError(`malformed DNS answer: ${detail}`, { code: "MALFORMED", settings: [], mayHaveApplied: true });
}

/** A malformed answer (or one that could not be read), with what the update was. */
export function badAnswer(t: UpdateDescription, cause: unknown): DnsUpdateError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new DnsUpdateError(`${at(t)}: the answer could not be read (${detail}); is \`server\` a DNS server?`, { code: "MALFORMED", settings: ["server"], mayHaveApplied: true, cause });
}
