/** What a Validation keeps in state. */
import type { AccountRecord } from "../order/account.js";
import type { StoredValidationRecord } from "./records.js";

/**
 * What Validation keeps in state (inputs needed for diff, plus the records),
 * and the account that the API showed the order to (not declared outputs:
 * evidence for refresh, see `order/account.ts`).
 */
export interface ValidationState extends AccountRecord {
  orderNo: string;
  domains: string[];
  /** The method in effect at the service, as a spec 4.5 code where it can be told (`email` when the mailbox cannot). */
  method: string;
  /** The Order's sign request id the records belong to (empty when the program gives none). */
  requestId: string;
  /** Derived from the method: `admin` for `email-admin`, ...; empty for other methods. */
  emailSuffix: string;
  /** Compact in state (see `storeRecords`); the class expands them. */
  records: StoredValidationRecord[];
}
