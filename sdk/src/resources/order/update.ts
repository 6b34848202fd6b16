import type * as pulumi from "@pulumi/pulumi";
import { isPartnerApiError } from "../../client/errors.js";
import { CertStatus } from "../../client/types.js";
import { resourceName, toPlainJson, type ProviderContext } from "../../provider/index.js";
import { forgetJournalEntry } from "./diff.js";
import { describe, ensureSubmitted } from "./sign.js";
import type { OrderInputs, OrderState } from "./types.js";

/**
 * Resumes a partially created order (ApplySign) and switches the
 * verification method in place. Returns every output: a missing one would
 * be lost from state.
 */
export async function update(ctx: ProviderContext, _id: string, olds: OrderState, news: OrderInputs): Promise<pulumi.dynamic.UpdateResult<OrderState>> {
  const log = ctx.log(news.journalKey);
  const api = ctx.api();
  await forgetJournalEntry(ctx, olds);
  const { __provider: _provider, ...newInputs } = news;
  // Outputs the API owns stay as they are; inputs take their new values, except
  // a method the user left unset, which keeps the order's actual method.
  let state: OrderState = {
    ...olds,
    ...newInputs,
    verificationMethod: news.verificationMethod ?? olds.verificationMethod,
    emailSuffix: news.emailSuffix ?? olds.emailSuffix,
  };
  state = await ensureSubmitted(api, { ...state, verificationMethod: olds.verificationMethod, emailSuffix: olds.emailSuffix }, news);

  const wanted = { method: news.verificationMethod, suffix: news.emailSuffix };
  const methodChanged = wanted.method !== undefined && wanted.method !== state.verificationMethod;
  const suffixChanged = wanted.suffix !== undefined && wanted.suffix !== state.emailSuffix;
  if (methodChanged || suffixChanged) {
    if (state.certStatus !== CertStatus.Issuing) {
      // ChangeVertificationMethod is only allowed while validation is pending.
      log.warn(
        `verificationMethod not changed to ${wanted.method ?? state.verificationMethod}: order ${state.orderNo} is in cert status ${state.certStatus}, ` +
          "and the method can only change while validation is pending (status 2); recorded the new input only",
      );
      return { outs: toPlainJson({ ...state, verificationMethod: wanted.method ?? state.verificationMethod, emailSuffix: wanted.suffix ?? olds.emailSuffix }) as unknown as OrderState };
    }
    const method = wanted.method ?? state.verificationMethod!;
    try {
      const changed = await api.changeVerificationMethod({
        orderNo: state.orderNo,
        method,
        emailSuffix: method === "email" ? wanted.suffix : undefined,
      });
      state = {
        ...state,
        verificationMethod: changed.verificationMethod,
        emailSuffix: changed.emailSuffix ?? (method === "email" ? wanted.suffix : undefined),
        requestId: changed.requestId ?? state.requestId,
        records: changed.records,
        certStatus: changed.certStatus ?? state.certStatus,
      };
      log.info(`verification method of order ${state.orderNo} is now ${method}; new validation records issued`);
    } catch (error) {
      if (isPartnerApiError(error, "rate_limited")) {
        const retryAt = error.retryAfter !== undefined ? new Date(ctx.now().getTime() + error.retryAfter * 1000).toISOString() : undefined;
        throw new Error(
          `certreseller Order "${resourceName(news.journalKey)}": the verification method of order ${state.orderNo} can change at most once per 5 minutes per certificate; ` +
            (retryAt ? `run \`pulumi up\` again after ${retryAt} (in ${error.retryAfter} s).` : "run `pulumi up` again in a few minutes."),
          { cause: error },
        );
      }
      throw new Error(`certreseller Order "${resourceName(news.journalKey)}": changing the verification method of order ${state.orderNo} failed: ${describe(error)}`, {
        cause: error,
      });
    }
  }
  return { outs: toPlainJson(state) as unknown as OrderState };
}
