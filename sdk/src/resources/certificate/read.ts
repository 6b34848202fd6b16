import type * as pulumi from "@pulumi/pulumi";
import { CertStatus } from "../../client/vocabulary.js";
import { describeError } from "../../client/describe-error.js";
import type { ProviderContext } from "../../provider/context.js";
import { accountOf, incompleteRecord, knownAccount, otherAccountError } from "../order/account.js";
import { apiSaysNoSuchOrder, unconfirmedNotFound } from "../order/evidence.js";
import { clockTime } from "../shared/clock.js";
import { DEFAULT_COOLDOWN_SECONDS, statusGateKey, statusReader } from "../shared/process-status-gate.js";
import type { CertificateState } from "./state.js";
import type { StatusDeps } from "./wait.js";

/**
 * Refresh reads the status only when the service would answer; under the
 * cooldown (or a refusal) the stored certificate is kept with a warning,
 * because failing a refresh over a rate limit helps nobody. The stored
 * material is never dropped: a 404 under the account recorded at create
 * (the order is gone) keeps it with a warning; under another account the
 * refresh fails with the Order's message (both app ids, the way back).
 */
export async function read({ clock, gate }: StatusDeps, ctx: ProviderContext, id: string, props: CertificateState): Promise<pulumi.dynamic.ReadResult<CertificateState>> {
  const log = ctx.log();
  const api = ctx.api();
  const key = statusGateKey(ctx.settings.baseUrl, props.orderNo);
  let result;
  try {
    result = await gate.read(key, statusReader(api, props.orderNo), { freshAfter: 0, deadline: clock.now() });
  } catch (error) {
    if (await apiSaysNoSuchOrder(api, props.orderNo, error)) {
      const account = await accountOf(ctx, props, `refreshing certificate ${id} of order ${props.orderNo} (the API answered 404)`);
      if (account.other) throw otherAccountError({ resource: "Certificate", orderNo: props.orderNo, journalKey: undefined, account, verb: "changed in state" });
      log.warn(
        `order ${props.orderNo}: ` +
          (account.same
            ? `no longer exists for the account that bought it (app id ${account.current} at ${account.currentEndpoint}; the API answered 404)`
            : incompleteRecord(account)) +
          `; the stored certificate ${id} is kept in state as it was`,
      );
      return { id, props };
    }
    throw new Error(
      `certreseller Certificate: reading the status of order ${props.orderNo} failed (${describeError(error)}${unconfirmedNotFound(error)}); the stored certificate ${id} is kept in state as it was`,
      { cause: error },
    );
  }
  if (result === undefined || "rateLimitedUntil" in result) {
    const until = result && "rateLimitedUntil" in result ? result.rateLimitedUntil : gate.nextAllowedAt(key);
    log.warn(`order ${props.orderNo}: status not re-read (one read per ${DEFAULT_COOLDOWN_SECONDS} s per order; next allowed at ${clockTime(until)}); keeping the stored certificate ${id}`);
    return { id, props };
  }
  const status = result.status;
  if (status.certId === props.certId && status.certStatus !== CertStatus.Issued) {
    log.warn(`order ${props.orderNo}: certificate ${id} is no longer valid at the service (cert_status ${status.certStatus}${status.certStatusLabel ? `, ${status.certStatusLabel}` : ""}); the stored material is kept — replace the Order to get a new certificate`);
  }
  // The API showed the order to this key at this endpoint.
  return { id, props: { ...props, ...(await knownAccount(ctx, props)) } };
}
