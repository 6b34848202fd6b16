import type * as pulumi from "@pulumi/pulumi";
import { CertStatus } from "../../client/types.js";
import { describeError } from "../../client/describe-error.js";
import { toPlainJson, type ProviderContext } from "../../provider/index.js";
import { renewalConfigured } from "../../rules/lifetime.js";
import { accountOf, incompleteRecord, knownAccount, otherAccountError } from "./account.js";
import { paidNoLaterThan } from "./adopt.js";
import { apiSaysNoSuchOrder, unconfirmedNotFound } from "./evidence.js";
import { forgetJournalEntry } from "./journal-entry.js";
import { learnCurrentCertificate, settingsOf, withKnowledge } from "./renewal.js";
import { reportedMethod } from "./reported-method.js";
import { revokedAdvice, settlementOf, SettlementUnknownError, type Settlement } from "./settlement.js";
import { withoutRetired, type OrderState } from "./state.js";

/**
 * Refresh through GetRecord (no rate limit). An order the API itself says
 * no longer exists (its 404) under the account that bought it, or whose
 * order status shows it cancelled or refunded outside Pulumi, is dropped
 * from state with a warning, so the next `up` previews buying a new one. A
 * revoked certificate of a live order keeps the order (it is still paid)
 * and says how to get a certificate again (settlement.ts).
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
      const account = await accountOf(ctx, props, `refreshing order ${id} (the API answered 404)`);
      if (account.same) {
        log.warn(`order ${id} no longer exists for the account that bought it (app id ${account.current} at ${account.currentEndpoint}; the API answered 404); removing it from state`);
        return {};
      }
      if (account.other) throw otherAccountError({ orderNo: id, journalKey: props.journalKey, account, verb: "removed from state" });
      log.warn(
        `order ${id}: ${incompleteRecord(account)}: the order is KEPT in state. ` +
          "To confirm, look the order up in the reseller account that bought it: if that is this key's account at this base URL and the order is gone, " +
          `\`pulumi state delete '${props.journalKey ?? id}'\`; if another key or base URL bought it, set that one (\`pulumi config set --secret certreseller:apiKey ...\` / \`pulumi config set certreseller:baseUrl ...\`), run \`pulumi up\`, then refresh.`,
      );
      return { id, props: toPlainJson(withoutRetired(props)) as unknown as OrderState };
    }
    throw new Error(`certreseller Order: reading order ${id} failed (${describeError(error)}${unconfirmedNotFound(error)}); the order is kept in state as it was`, { cause: error });
  }
  // The API showed the order to this key at this endpoint: this key's account there holds it (also after a key rotation within the account).
  const account = await knownAccount(ctx, props);
  if (props.accountId !== undefined && (account.accountId !== props.accountId || (props.accountEndpoint !== undefined && account.accountEndpoint !== props.accountEndpoint))) {
    log.info(
      `order ${id} is now managed with the key whose app id is ${account.accountId} at ${account.accountEndpoint} (was ${props.accountId}${props.accountEndpoint ? ` at ${props.accountEndpoint}` : ""}); the API shows the order to it`,
    );
  }
  const certStatus = stored.certStatus;
  // The order status decides whether the order is gone, not a revoked certificate (settlement.ts).
  let settlement: Settlement;
  try {
    settlement = await settlementOf(api, id, certStatus);
  } catch (error) {
    if (!(error instanceof SettlementUnknownError)) throw error;
    log.warn(`${error.message}: the order is KEPT in state as it was; run \`pulumi refresh\` again${error.retryAfter ? ` in ${error.retryAfter} s` : " later"}`);
    return { id, props: toPlainJson(withoutRetired({ ...props, certStatus })) as unknown as OrderState };
  }
  if (settlement.kind === "settled") {
    log.warn(`order ${id} was ${settlement.why} outside Pulumi; removing it from state — the next \`pulumi up\` will buy a new one`);
    return {};
  }
  if (settlement.kind === "revoked") log.warn(revokedAdvice(id, settlement.orderStatus, props.journalKey));
  if (certStatus === CertStatus.Revoking) log.warn(`order ${id}'s certificate is being revoked`);
  const state: OrderState = withoutRetired({
    ...props,
    certStatus,
    verificationMethod: reportedMethod(stored.verificationMethod, props.verificationMethod),
    ...account,
    // An order adopted by an earlier release has no payment time: it was paid before the service showed it now.
    ...(props.paidAt === undefined && props.paidNoLaterThan === undefined ? { paidNoLaterThan: paidNoLaterThan(stored) } : {}),
  });
  // Renewal needs the current certificate's end date: learn it once it is issued (no wait under the cooldown).
  const settings = settingsOf(props);
  let knowledge;
  if (renewalConfigured(settings) && certStatus === CertStatus.Issued && !state.certNotAfter) {
    knowledge = (await learnCurrentCertificate(ctx, state)).knowledge;
  }
  return { id, props: toPlainJson(withKnowledge(state, knowledge, settings)) as unknown as OrderState };
}
