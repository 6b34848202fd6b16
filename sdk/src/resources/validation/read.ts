import type * as pulumi from "@pulumi/pulumi";
import { describeError } from "../../client/describe-error.js";
import type { ProviderContext } from "../../provider/context.js";
import { toPlainJson } from "../../provider/plain-json.js";
import { accountOf, incompleteRecord, knownAccount, otherAccountError } from "../order/account.js";
import { apiSaysNoSuchOrder, unconfirmedNotFound } from "../order/evidence.js";
import { readRecords } from "./read-records.js";
import type { ValidationState } from "./state.js";

/**
 * Re-reads the records (refresh). The order is gone only on the Order's
 * evidence: the API's own 404 (see `apiSaysNoSuchOrder`) under the account
 * and endpoint recorded when the Validation read the records. Then the
 * Validation is removed from state with a warning. Under another account
 * the refresh fails with the Order's message (both app ids, the way back);
 * with no account recorded (an earlier release's state) it is kept with a
 * warning; anything else fails the refresh and keeps the state as it was.
 */
export async function read(ctx: ProviderContext, id: string, props: ValidationState): Promise<pulumi.dynamic.ReadResult<ValidationState>> {
  const log = ctx.log();
  try {
    // Not held to the stored method: a method changed outside Pulumi shows up as a diff.
    const outs = await readRecords(ctx, { orderNo: props.orderNo, domains: props.domains, requestId: props.requestId }, props.method);
    return { id, props: toPlainJson({ ...props, ...outs, ...(await knownAccount(ctx, props)) }) as unknown as ValidationState };
  } catch (error) {
    if (await apiSaysNoSuchOrder(ctx.api(), props.orderNo, error)) {
      const account = await accountOf(ctx, props, `refreshing the Validation of order ${props.orderNo} (the API answered 404)`);
      if (account.same) {
        log.warn(
          `order ${props.orderNo} no longer exists for the account that bought it (app id ${account.current} at ${account.currentEndpoint}; the API answered 404); the Validation is removed from state`,
        );
        return { id: "", props: {} as ValidationState };
      }
      if (account.other) throw otherAccountError({ resource: "Validation", orderNo: props.orderNo, journalKey: undefined, account, verb: "removed from state" });
      log.warn(`Validation of order ${props.orderNo}: ${incompleteRecord(account)}: the Validation is KEPT in state as it was.`);
      return { id, props };
    }
    throw new Error(
      `certreseller Validation: reading the records of order ${props.orderNo} failed (${describeError(error)}${unconfirmedNotFound(error)}); the Validation is kept in state as it was`,
      { cause: error },
    );
  }
}
