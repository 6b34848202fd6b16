import type * as pulumi from "@pulumi/pulumi";
import { CertStatus } from "../../client/types.js";
import { toPlainJson, type ProviderContext } from "../../provider/index.js";
import { renewalConfigured } from "../../rules/lifetime.js";
import { accountOf, knownAccountId, otherAccountError } from "./account.js";
import { describeError } from "./describe-error.js";
import { apiSaysNoSuchOrder, unconfirmedNotFound } from "./evidence.js";
import { forgetJournalEntry } from "./journal-entry.js";
import { learnCurrentCertificate, settingsOf, withKnowledge } from "./renewal.js";
import { reportedMethod } from "./reported-method.js";
import { withoutRetired, type OrderState } from "./state.js";

/** Cert states that mean the purchase is gone: revoked/refunded, refund in progress. */
const GONE: readonly number[] = [CertStatus.Revoked, CertStatus.RefundInProgress];

/**
 * Refresh through GetRecord (no rate limit). An order the API itself says
 * no longer exists (its 404) under the account that bought it, or that was
 * cancelled, refunded or revoked outside Pulumi, is dropped from state with a
 * warning, so the next `up` previews buying a new one.
 *
 * A 404 proves "gone" only under the account recorded in `accountId`: the
 * service answers 404 for another account's order too. Under another
 * account's key the refresh fails (naming both app ids); for state written
 * before the account was recorded, a 404 keeps the order and warns. Any
 * other failure (an HTML error page, a timeout) fails the refresh and leaves
 * the state as it was: dropping a paid order on anything less than the
 * API's word would buy it again.
 */
export async function read(ctx: ProviderContext, id: string, props: OrderState): Promise<pulumi.dynamic.ReadResult<OrderState>> {
  const log = ctx.log(props.journalKey);
  await forgetJournalEntry(ctx, props);
  const api = ctx.api();
  let stored;
  try {
    stored = await api.getRecord({ orderNo: id });
  } catch (error) {
    if (await apiSaysNoSuchOrder(api, id, error)) {
      const account = await accountOf(api, props.accountId, `refreshing order ${id} (the API answered 404)`);
      if (account.same) {
        log.warn(`order ${id} no longer exists for the account that bought it (app id ${account.current}; the API answered 404); removing it from state`);
        return {};
      }
      if (account.recorded !== undefined) {
        throw otherAccountError({ orderNo: id, journalKey: props.journalKey, recorded: account.recorded, current: account.current, verb: "removed from state" });
      }
      log.warn(
        `order ${id}: the API answers 404 for the current key (app id ${account.current ?? "not shown"}), which means "does not exist" OR "belongs to another account". ` +
          "This state was written before the Order recorded its account, so that cannot be told apart: the order is KEPT in state. " +
          "To confirm, look the order up in the reseller account that bought it: if that is this key's account and the order is gone, " +
          `\`pulumi state delete '${props.journalKey ?? id}'\`; if another key bought it, set that key (\`pulumi config set --secret certreseller:apiKey ...\`), run \`pulumi up\`, then refresh.`,
      );
      return { id, props: toPlainJson(withoutRetired(props)) as unknown as OrderState };
    }
    throw new Error(`certreseller Order: reading order ${id} failed (${describeError(error)}${unconfirmedNotFound(error)}); the order is kept in state as it was`, { cause: error });
  }
  // The API showed the order to this key: this key's account holds it (also after a key rotation within the account).
  const current = await knownAccountId(api);
  const accountId = current ?? props.accountId;
  if (props.accountId !== undefined && current !== undefined && current !== props.accountId) {
    log.info(`order ${id} is now managed with the key whose app id is ${current} (was ${props.accountId}); the API shows the order to it`);
  }
  const certStatus = stored.certStatus;
  if (GONE.includes(certStatus)) {
    log.warn(
      `order ${id} was ${certStatus === CertStatus.Revoked ? "revoked or refunded" : "cancelled (refund in progress)"} outside Pulumi; ` +
        "removing it from state — the next `pulumi up` will buy a new one",
    );
    return {};
  }
  if (certStatus === CertStatus.Revoking) log.warn(`order ${id}'s certificate is being revoked`);
  const state: OrderState = withoutRetired({
    ...props,
    certStatus,
    verificationMethod: reportedMethod(stored.verificationMethod, props.verificationMethod),
    accountId,
  });
  // Renewal needs the current certificate's end date: learn it once it is issued (no wait under the cooldown).
  const settings = settingsOf(props);
  let knowledge;
  if (renewalConfigured(settings) && certStatus === CertStatus.Issued && !state.certNotAfter) {
    knowledge = (await learnCurrentCertificate(ctx, state)).knowledge;
  }
  return { id, props: toPlainJson(withKnowledge(state, knowledge, settings)) as unknown as OrderState };
}
