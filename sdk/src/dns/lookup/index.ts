/**
 * DNS lookups for the checks that keep money safe: CAA before a purchase
 * (`caa.ts`, RFC 8659's tree climbing) and the visibility of validation
 * records before the Certificate waits (`propagation.ts`, over `zone.ts`).
 * Reads only; nothing here changes a zone.
 */
export { DnsLookupError, describeDnsCode } from "./errors.js";
export { createDnsLookup, DEFAULT_LOOKUP_TIMEOUT_MS, type Answer, type AnswerStatus, type DnsLookup, type LookupOptions } from "./resolver.js";
export { relevantCaaSet, type CaaAnswers, type RelevantCaa } from "./caa.js";
export { authoritativeServers, findZone, NoAuthoritativeServerError, ZoneNotFoundError, type DnsServer } from "./zone.js";
export {
  describeRecord,
  PropagationTimeoutError,
  waitForPropagation,
  type ExpectedRecord,
  type MissingRecord,
  type PollClock,
  type PropagationOptions,
  type PropagationReport,
} from "./propagation.js";
