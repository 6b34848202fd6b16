import type * as pulumi from "@pulumi/pulumi";
import { isPartnerApiError } from "../../client/errors.js";
import { CertStatus } from "../../client/types.js";
import { describeError } from "../../client/describe-error.js";
import { resourceName, toPlainJson, type ProviderContext } from "../../provider/index.js";
import { sameMethod } from "../shared/verification-method.js";
import { accountOf, incompleteRecord, knownAccount, otherAccountError } from "./account.js";
import { apiSays } from "./evidence.js";
import type { OrderInputs } from "./inputs.js";
import { forgetJournalEntry } from "./journal-entry.js";
import { reissue, renewalPlanFor, settingsOf, withKnowledge } from "./renewal.js";
import { reportedMethod } from "./reported-method.js";
import { ensureSubmitted } from "./sign.js";
import { withoutRetired, type OrderState } from "./state.js";

/**
 * Resumes a partially created order (ApplySign) and switches the
 * verification method in place. Returns every output: a missing one would
 * be lost from state (and outputs an earlier release kept are dropped).
 */
export async function update(ctx: ProviderContext, _id: string, olds: OrderState, news: OrderInputs): Promise<pulumi.dynamic.UpdateResult<OrderState>> {
  const log = ctx.log(news.journalKey);
  const api = ctx.api();
  await forgetJournalEntry(ctx, olds);
  const account = olds.accountId === undefined ? undefined : await accountOf(ctx, olds, `updating order ${olds.orderNo}`);
  if (account && !account.same) {
    // Another key or endpoint: only the API showing the order to it (a key rotated within the account) lets the update go on.
    try {
      await api.getRecord({ orderNo: olds.orderNo });
    } catch (error) {
      if (apiSays(error, "not_found")) {
        if (account.other) throw otherAccountError({ orderNo: olds.orderNo, journalKey: news.journalKey, account, verb: "submitted or changed" });
        throw new Error(`certreseller Order: order ${olds.orderNo}: ${incompleteRecord(account)}; nothing was submitted or changed`, { cause: error });
      }
      throw new Error(`certreseller Order: reading order ${olds.orderNo} failed (${describeError(error)}); nothing was changed`, { cause: error });
    }
  }
  const { __provider: _provider, ...newInputs } = news;
  // Outputs the API owns stay as they are; inputs take their new values, except
  // the method, which stays the order's actual one until the service switched it.
  let state: OrderState = withoutRetired({ ...olds, ...newInputs, verificationMethod: olds.verificationMethod });
  // Renewal measured on the certificate: inside the window, with another
  // installment left, the update IS the reissue (ApplySign; nothing is bought).
  const plan = await renewalPlanFor(ctx, olds, news);
  const settings = settingsOf(news);
  state = withKnowledge(state, plan.knowledge, settings);
  if (plan.kind === "reissue") state = withKnowledge(await reissue(ctx, api, state, plan, plan.knowledge), undefined, settings);
  else state = await ensureSubmitted(api, state, news, { log });
  // The API answered about the order under this key: this key's account holds it.
  state = { ...state, ...(await knownAccount(ctx, state)) };

  const wanted = news.verificationMethod;
  if (wanted === undefined || sameMethod(state.verificationMethod, wanted)) return { outs: toPlainJson(state) as unknown as OrderState };
  if (state.certStatus !== CertStatus.Issuing) {
    // ChangeVertificationMethod is only allowed while validation is pending.
    log.warn(
      `verificationMethod not changed to ${wanted}: order ${state.orderNo} is in cert status ${state.certStatus}, ` +
        "and the method can only change while validation is pending (status 2); recorded the new input only",
    );
    return { outs: toPlainJson({ ...state, verificationMethod: wanted }) as unknown as OrderState };
  }
  try {
    const changed = await api.changeVerificationMethod({ orderNo: state.orderNo, method: wanted });
    state = {
      ...state,
      verificationMethod: reportedMethod(changed.verificationMethod, wanted),
      requestId: changed.requestId ?? state.requestId,
      certStatus: changed.certStatus ?? state.certStatus,
    };
    log.info(`verification method of order ${state.orderNo} is now ${wanted}; new validation records issued`);
  } catch (error) {
    if (isPartnerApiError(error, "rate_limited")) {
      const retryAt = error.retryAfter !== undefined ? new Date(ctx.now().getTime() + error.retryAfter * 1000).toISOString() : undefined;
      throw new Error(
        `certreseller Order "${resourceName(news.journalKey)}": the verification method of order ${state.orderNo} can change at most once per 5 minutes per certificate; ` +
          (retryAt ? `run \`pulumi up\` again after ${retryAt} (in ${error.retryAfter} s).` : "run `pulumi up` again in a few minutes."),
        { cause: error },
      );
    }
    throw new Error(`certreseller Order "${resourceName(news.journalKey)}": changing the verification method of order ${state.orderNo} failed: ${describeError(error)}`, {
      cause: error,
    });
  }
  return { outs: toPlainJson(state) as unknown as OrderState };
}
