/**
 * Zones and DNS records as Cloudflare's API v4 documents them ("DNS Records
 * for a Zone"): records by id inside a zone, API tokens scoped to zones, and
 * Cloudflare's own refusals, each an `{ code, message }` of its error list.
 * Assumptions where the documentation is silent are in docs/dns/cloudflare.md.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PublishedDnsRecord } from "../store/types.js";
import { randomHex, randomString } from "../util/ids.js";

/** Record types the stand-in keeps; the validation view publishes TXT and CNAME. */
export const CLOUDFLARE_RECORD_TYPES = ["A", "AAAA", "CNAME", "TXT"] as const;
export type CloudflareRecordType = (typeof CLOUDFLARE_RECORD_TYPES)[number];

/** TTL 1 means "automatic"; otherwise 60 s to one day. */
export const TTL_AUTOMATIC = 1;
export const TTL_MIN = 60;
export const TTL_MAX = 86_400;

/** API tokens: what the Pulumi provider accepts (`^[0-9A-Za-z_-]{40,80}$`). */
const TOKEN_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
export const TOKEN_PATTERN = /^[0-9A-Za-z_-]{40,80}$/;
/** Zone and record identifiers are 32 lowercase hex digits. */
export const ID_PATTERN = /^[0-9a-f]{32}$/;

export interface CloudflareZone {
  id: string;
  name: string;
  /** The API token allowed to edit this zone's DNS. */
  token: string;
}

export interface CloudflareRecord {
  id: string;
  zoneId: string;
  name: string;
  type: CloudflareRecordType;
  content: string;
  ttl: number;
  proxied: boolean;
  comment: string | null;
  tags: string[];
  createdOn: string;
  modifiedOn: string;
}

/** One refusal in Cloudflare's words: HTTP status and the `errors[]` entries. */
export class CloudflareError extends Error {
  override readonly name = "CloudflareError";
  constructor(readonly status: number, readonly errors: Array<{ code: number; message: string }>) {
    super(errors.map((e) => `${e.code}: ${e.message}`).join("; "));
  }
}

const refuse = (status: number, code: number, message: string): CloudflareError => new CloudflareError(status, [{ code, message }]);

/** The fields a create, overwrite (PUT) or edit (PATCH) may carry. */
export interface RecordInput {
  name?: unknown;
  type?: unknown;
  content?: unknown;
  ttl?: unknown;
  proxied?: unknown;
  comment?: unknown;
  tags?: unknown;
}

export interface ZoneSeed {
  name: string;
  id?: string;
  token?: string;
}

const normalName = (name: string): string => name.trim().toLowerCase().replace(/\.$/, "");
const LABEL = /^(?:\*|[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)$/;

/**
 * The stand-in's zones and records. Records of every zone form the view
 * the CA validates from ({@link published}); with a data directory they
 * survive a restart in `cloudflare.json`.
 */
export class CloudflareDns {
  readonly #zones = new Map<string, CloudflareZone>();
  readonly #records = new Map<string, CloudflareRecord>();
  readonly #file: string | undefined;

  constructor(dataDir?: string, seeds: ZoneSeed[] = []) {
    this.#file = dataDir === undefined ? undefined : join(dataDir, "cloudflare.json");
    if (this.#file !== undefined && existsSync(this.#file)) {
      const saved = JSON.parse(readFileSync(this.#file, "utf8")) as { zones: CloudflareZone[]; records: CloudflareRecord[] };
      for (const z of saved.zones) this.#zones.set(z.id, z);
      for (const r of saved.records) this.#records.set(r.id, r);
    }
    for (const seed of seeds) this.addZone(seed);
  }

  /**
   * Adds a zone (or returns the one with this id, its token replaced when
   * given). Missing id and token are generated. Throws RangeError on a bad
   * name, id or token.
   */
  addZone(seed: ZoneSeed): CloudflareZone {
    const name = normalName(seed.name);
    if (!name.includes(".") || !name.split(".").every((l) => LABEL.test(l) && l !== "*")) {
      throw new RangeError(`zone name must be a domain such as example.com, got ${JSON.stringify(seed.name)}`);
    }
    if (seed.id !== undefined && !ID_PATTERN.test(seed.id)) throw new RangeError(`zone id must be 32 lowercase hex digits, got ${JSON.stringify(seed.id)}`);
    if (seed.token !== undefined && !TOKEN_PATTERN.test(seed.token)) {
      throw new RangeError("zone token must be 40 to 80 characters of A-Z, a-z, 0-9, _ and -");
    }
    const existing = seed.id === undefined ? undefined : this.#zones.get(seed.id);
    if (existing !== undefined && existing.name !== name) {
      throw new RangeError(`zone id ${seed.id} is already the zone ${existing.name}`);
    }
    const zone: CloudflareZone = { id: seed.id ?? randomHex(16), name, token: seed.token ?? existing?.token ?? randomString(40, TOKEN_ALPHABET) };
    this.#zones.set(zone.id, zone);
    this.#save();
    return zone;
  }

  zones(): CloudflareZone[] {
    return [...this.#zones.values()];
  }

  /** The zone a request names, if `token` may edit it. */
  authorize(zoneId: string, token: string | undefined): CloudflareZone {
    if (token === undefined) throw refuse(400, 9106, "Missing X-Auth-Key, X-Auth-Email or Authorization headers");
    const known = [...this.#zones.values()].some((z) => z.token === token);
    if (!known) throw refuse(401, 9109, "Invalid access token");
    const zone = this.#zones.get(zoneId);
    if (zone === undefined) {
      throw new CloudflareError(400, [
        { code: 7003, message: `Could not route to /zones/${zoneId}/dns_records, perhaps your object identifier is invalid?` },
        { code: 7000, message: "No route for that URI" },
      ]);
    }
    if (zone.token !== token) throw refuse(403, 10000, "Authentication error");
    return zone;
  }

  list(zone: CloudflareZone, filter: { name?: string; type?: string; content?: string } = {}): CloudflareRecord[] {
    const name = filter.name === undefined ? undefined : this.#qualify(zone, filter.name);
    return [...this.#records.values()].filter(
      (r) =>
        r.zoneId === zone.id &&
        (name === undefined || r.name === name) &&
        (filter.type === undefined || r.type === filter.type.toUpperCase()) &&
        (filter.content === undefined || r.content === filter.content),
    );
  }

  get(zone: CloudflareZone, id: string): CloudflareRecord {
    const record = this.#records.get(id);
    if (record === undefined || record.zoneId !== zone.id) throw refuse(404, 81044, "Record does not exist.");
    return record;
  }

  create(zone: CloudflareZone, input: RecordInput, now: Date): CloudflareRecord {
    const fields = this.#validate(zone, input, undefined);
    const at = now.toISOString();
    const record: CloudflareRecord = { id: randomHex(16), zoneId: zone.id, ...fields, createdOn: at, modifiedOn: at };
    this.#records.set(record.id, record);
    this.#save();
    return record;
  }

  /** PUT overwrites every field (those left out take their defaults); PATCH changes only those given. */
  update(zone: CloudflareZone, id: string, input: RecordInput, mode: "overwrite" | "edit", now: Date): CloudflareRecord {
    const current = this.get(zone, id);
    const merged: RecordInput =
      mode === "edit"
        ? { name: current.name, type: current.type, content: current.content, ttl: current.ttl, proxied: current.proxied, comment: current.comment, tags: current.tags, ...definedOnly(input) }
        : input;
    const fields = this.#validate(zone, merged, current.id);
    const record: CloudflareRecord = { ...current, ...fields, modifiedOn: now.toISOString() };
    this.#records.set(id, record);
    this.#save();
    return record;
  }

  delete(zone: CloudflareZone, id: string): string {
    this.get(zone, id);
    this.#records.delete(id);
    this.#save();
    return id;
  }

  /** Every TXT and CNAME record of every zone, as the CA's `published` validation reads them. */
  published(): PublishedDnsRecord[] {
    return [...this.#records.values()]
      .filter((r): r is CloudflareRecord & { type: "TXT" | "CNAME" } => r.type === "TXT" || r.type === "CNAME")
      .map((r) => ({ fqdn: r.name, type: r.type, value: r.type === "TXT" ? unquoteTxt(r.content) : normalName(r.content) }));
  }

  /** All records of every zone (the management API's listing). */
  records(): CloudflareRecord[] {
    return [...this.#records.values()];
  }

  /** `@` is the apex; a single label is relative to the zone; anything else must end in the zone's name. */
  #qualify(zone: CloudflareZone, raw: string): string {
    const name = normalName(raw);
    if (name === "@" || name === "") return zone.name;
    if (!name.includes(".")) return `${name}.${zone.name}`;
    return name;
  }

  #validate(zone: CloudflareZone, input: RecordInput, selfId: string | undefined): Omit<CloudflareRecord, "id" | "zoneId" | "createdOn" | "modifiedOn"> {
    const type = typeof input.type === "string" ? input.type.toUpperCase() : undefined;
    if (type === undefined) throw refuse(400, 9101, "DNS record type is required.");
    if (!(CLOUDFLARE_RECORD_TYPES as readonly string[]).includes(type)) throw refuse(400, 9004, `DNS record type ${JSON.stringify(input.type)} is not supported here; use one of ${CLOUDFLARE_RECORD_TYPES.join(", ")}.`);
    if (typeof input.name !== "string" || input.name.trim() === "") throw refuse(400, 9007, "DNS record name is required.");
    const name = this.#qualify(zone, input.name);
    if (!name.split(".").every((l, i) => LABEL.test(l) && (l !== "*" || i === 0))) throw refuse(400, 9000, "DNS name is invalid.");
    if (name !== zone.name && !name.endsWith(`.${zone.name}`)) {
      throw refuse(400, 9000, `DNS name is invalid: ${name} is not in the zone ${zone.name}.`);
    }
    if (typeof input.content !== "string" || input.content === "") throw refuse(400, 9005, `Content for ${type} record is invalid.`);
    const content = input.content;
    if (type === "A" && !/^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/.test(content)) {
      throw refuse(400, 9005, "Content for A record must be a valid IPv4 address.");
    }
    if (type === "AAAA" && !/^[0-9a-fA-F:]+$/.test(content)) throw refuse(400, 9005, "Content for AAAA record must be a valid IPv6 address.");
    if (type === "CNAME" && !normalName(content).split(".").every((l) => LABEL.test(l))) throw refuse(400, 9005, "Content for CNAME record is invalid.");
    if (type === "TXT" && content.length > 2048) throw refuse(400, 9005, "Content for TXT record is invalid: longer than 2048 characters.");
    const ttl = input.ttl === undefined ? TTL_AUTOMATIC : input.ttl;
    if (typeof ttl !== "number" || !Number.isInteger(ttl) || (ttl !== TTL_AUTOMATIC && (ttl < TTL_MIN || ttl > TTL_MAX))) {
      throw refuse(400, 9021, `Invalid TTL. Must be between ${TTL_MIN} and ${TTL_MAX} seconds, or 1 for automatic.`);
    }
    const proxied = input.proxied === undefined || input.proxied === null ? false : input.proxied;
    if (typeof proxied !== "boolean") throw refuse(400, 9003, "proxied must be true or false.");
    if (proxied && type !== "A" && type !== "AAAA" && type !== "CNAME") throw refuse(400, 9004, `This record type cannot be proxied.`);
    const comment = input.comment === undefined || input.comment === null ? null : String(input.comment);
    const tags = Array.isArray(input.tags) ? input.tags.map(String) : [];
    const others = [...this.#records.values()].filter((r) => r.zoneId === zone.id && r.name === name && r.id !== selfId);
    if (others.some((r) => r.type === type && r.content === content)) throw refuse(400, 81058, "An identical record already exists.");
    if (type === "CNAME" ? others.length > 0 : others.some((r) => r.type === "CNAME")) {
      throw refuse(400, 81053, "An A, AAAA, or CNAME record with that host already exists.");
    }
    return { name, type: type as CloudflareRecordType, content, ttl, proxied, comment, tags };
  }

  #save(): void {
    if (this.#file === undefined) return;
    const tmp = `${this.#file}.tmp`;
    writeFileSync(tmp, JSON.stringify({ zones: this.zones(), records: this.records() }));
    renameSync(tmp, this.#file);
  }
}

function definedOnly(input: RecordInput): RecordInput {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as RecordInput;
}

/** A TXT record's content may be sent quoted (`"v"`); resolvers answer the text inside. */
function unquoteTxt(content: string): string {
  const m = /^"(.*)"$/s.exec(content);
  return m === null ? content : m[1]!.replace(/\\(.)/g, "$1");
}
