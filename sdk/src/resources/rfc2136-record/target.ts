/** The record and the update target an Rfc2136Record's state describes. */
import type { RecordData } from "../../dns/message.js";
import type { UpdateTarget } from "../../dns/update.js";
import type { Rfc2136RecordState } from "./inputs.js";

export function targetOf(s: Rfc2136RecordState): UpdateTarget {
  return { server: s.server, zone: s.zone, tsigKeyName: s.tsigKeyName, tsigAlgorithm: s.tsigAlgorithm, tsigSecret: s.tsigSecret };
}

export function recordOf(s: Rfc2136RecordState): RecordData {
  return { fqdn: s.fqdn, type: s.type, value: s.value, ttl: s.ttl };
}

/** The outputs: exactly the state's fields (never `__provider` or anything else the engine sent along). */
export function stateOf(s: Rfc2136RecordState, preExisting: boolean): Rfc2136RecordState {
  const { server, zone, fqdn, type, value, ttl, tsigKeyName, tsigAlgorithm, tsigSecret } = s;
  return { server, zone, fqdn, type, value, ttl, tsigKeyName, tsigAlgorithm, tsigSecret, preExisting };
}

/** `TXT _dnsauth.example.com @192.0.2.53:53`: readable, and never holding the value or the key. */
export function recordId(s: Rfc2136RecordState): string {
  return `${s.type} ${s.fqdn} @${s.server}`;
}

/** `TXT _dnsauth.example.com` for log lines. */
export function describeRecord(s: Rfc2136RecordState): string {
  return `${s.type} ${s.fqdn}`;
}

/** The warning for a record found after an update whose first copy went unanswered (see `Published.unsure`). */
export function unsureLine(s: Rfc2136RecordState): string {
  return (
    `${describeRecord(s)} with this value is in zone ${s.zone} at ${s.server}, but an earlier copy of this resource's update went unanswered and may have added it: ` +
    `it is kept as pre-existing, so destroy leaves it; delete it from the zone yourself once no certificate needs it if no one else put it there`
  );
}
