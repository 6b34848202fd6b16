/** What an Rfc2136Record receives and keeps: the inputs, normalised by `check`. */
import type { TsigAlgorithm } from "../../dns/tsig.js";
import type { Rfc2136RecordInputValues } from "./properties.generated.js";

export const RECORD_TYPES = ["TXT", "CNAME"] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export const DEFAULT_TTL = 60;
/** RFC 2181 8: a TTL is an unsigned 31-bit number of seconds. */
export const MAX_TTL = 2_147_483_647;
/**
 * A value change deletes the old value and adds the new one in ONE message,
 * which TCP caps at 65,535 bytes: two values this long still fit with room to
 * spare (a validation token is under 100 bytes).
 */
export const MAX_TXT_BYTES = 30_000;

/** The inputs as the program sends them (after the class; `ttl` and `tsigAlgorithm` may be absent). */
export type Rfc2136RecordInputs = Partial<Rfc2136RecordInputValues>;

/**
 * The inputs after `check` (names lower case without the trailing dot, type
 * upper case, defaults filled in), which are also the outputs kept in state:
 * `update` and `delete` need every one of them, the secret included (state
 * holds it encrypted: the class marks it secret).
 */
export type Rfc2136RecordState = Omit<Rfc2136RecordInputValues, "type" | "tsigAlgorithm"> & {
  type: RecordType;
  tsigAlgorithm: TsigAlgorithm;
  /**
   * An output: the server held this very record before the resource, which
   * therefore never deletes it. Absent in `check`'s inputs and in states
   * written before it existed: the resource added the record.
   */
  preExisting?: boolean;
};
