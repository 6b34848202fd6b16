/**
 * Validation provider (loaded lazily by the provider text; see
 * provider/provider-text.ts). Path `resources/validation/handlers.js` is
 * stored in state: keep it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isPartnerApiError } from "../../client/errors.js";
import { CertStatus, describeCertStatus, emailSuffixOf } from "../../client/vocabulary.js";
import type { ProviderContext } from "../../provider/context.js";
import type { ResourceHandlers } from "../../provider/handlers.js";
import { toPlainJson } from "../../provider/plain-json.js";
import { isUnknown } from "../../provider/unknown.js";
import { checkValidationInputs, type ValidationInputs, type ValidationOutputs } from "./inputs.js";
import { effectiveMethod, missingDomains, sameMethod, shapeValidationRecords, storeRecords } from "./records.js";

export const resourceType = "Validation";

/**
 * Reads the order's records with GetRecord (stored records, no rate limit)
 * and checks they cover the declared domains in the expected method, so the
 * records the program publishes are the ones the CA will check.
 *
 * `methodHint` only helps name an e-mail method the service reports as bare
 * `email`; `inputs.method`, when given, must agree with the service.
 */
async function readRecords(ctx: ProviderContext, inputs: ValidationInputs, methodHint?: string): Promise<ValidationOutputs> {
  const set = await ctx.api().getRecord({ orderNo: inputs.orderNo });
  if (set.certStatus === CertStatus.AwaitingSubmission) {
    throw new Error(
      `order ${inputs.orderNo} has no validation records yet: it has not been submitted for issuance (ApplySign; cert_status 0). ` +
        "The Order resource submits it; if its last up failed, run up again so the Order resumes",
    );
  }
  const reported = String(set.verificationMethod ?? "");
  if (inputs.method && reported && !sameMethod(inputs.method, reported.toLowerCase())) {
    throw new Error(
      `order ${inputs.orderNo} is validated by method "${reported}" at the service, but the program expects "${inputs.method}"; ` +
        "the Order's method change has not reached the service — run up again (or pulumi refresh) so the Order applies it",
    );
  }
  const method = effectiveMethod(reported, inputs.method ?? methodHint, set);
  const { records, unmatched } = shapeValidationRecords(set, { method, domains: inputs.domains, allDomains: set.allDomains });
  if (records.length === 0) {
    throw new Error(
      `order ${inputs.orderNo} has no ${method || "validation"} records at the service (cert_status ${set.certStatus}, ${describeCertStatus(set.certStatus)}); ` +
        "if it was just submitted, run up again; otherwise check the order with the reseller",
    );
  }
  const missing = missingDomains(records, inputs.domains);
  if (missing.length > 0) {
    const covered = set.allDomains.length > 0 ? set.allDomains : [...new Set(records.map((r) => r.domain))];
    throw new Error(
      `order ${inputs.orderNo} has no validation record for ${missing.join(", ")} (declared in domains); ` +
        `the order covers ${covered.join(", ")} — check that domains lists the order's names`,
    );
  }
  if (unmatched.length > 0) {
    ctx.log().warn(
      `order ${inputs.orderNo}: ${unmatched.length} validation record(s) for names not in domains (${[...new Set(unmatched.map((r) => r.domain))].join(", ")}); ` +
        "the CA checks them too — list every ordered name in domains, or publish those records yourself (see the records output)",
    );
  }
  return {
    orderNo: inputs.orderNo,
    domains: inputs.domains,
    method,
    requestId: inputs.requestId ?? "",
    emailSuffix: emailSuffixOf(method) ?? "",
    records: storeRecords(records, method),
  };
}

/**
 * Evidence that the order is gone: the API's own envelope said 404 (no such
 * order for this key). An HTTP 404 page from a proxy, a wrong base URL or an
 * outage proves nothing and must fail the refresh instead.
 */
function orderIsGone(error: unknown): boolean {
  return isPartnerApiError(error, "not_found") && error.code === 404;
}

function sameDomains(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (!a || !b) return a === b;
  const sa = [...a].sort();
  const sb = [...b].sort();
  return sa.length === sb.length && sa.every((d, i) => d === sb[i]);
}

export const handlers: ResourceHandlers<ValidationInputs, ValidationOutputs> = {
  async check(_ctx, _olds, news) {
    const { inputs, failures } = checkValidationInputs(news);
    return { inputs: inputs as ValidationInputs, failures };
  },

  async diff(_ctx, _id, olds, news): Promise<pulumi.dynamic.DiffResult> {
    const replaces: string[] = [];
    const changed: string[] = [];
    if (isUnknown(news.orderNo) || news.orderNo !== olds.orderNo) replaces.push("orderNo");
    if (isUnknown(news.domains) || !sameDomains(news.domains, olds.domains)) changed.push("domains");
    // The Order's method and request id are followed, not stored as inputs of
    // our own: a value that differs from what the service reported last means
    // the Order switched method and the tokens changed.
    if (news.method !== undefined && (isUnknown(news.method) || !sameMethod(news.method, olds.method ?? ""))) changed.push("method");
    if (news.requestId !== undefined && news.requestId !== "" && (isUnknown(news.requestId) || news.requestId !== olds.requestId)) changed.push("requestId");
    return { changes: replaces.length + changed.length > 0, replaces, deleteBeforeReplace: false };
  },

  async create(ctx, inputs) {
    const outs = await readRecords(ctx, inputs);
    ctx.log().info(`order ${outs.orderNo}: ${outs.records.length} ${outs.method} validation record(s) for ${inputs.domains.join(", ")}`);
    return { id: inputs.orderNo, outs: toPlainJson(outs) as unknown as ValidationOutputs };
  },

  async update(ctx, _id, olds, news) {
    const outs = await readRecords(ctx, news);
    if (!sameMethod(olds.method ?? "", outs.method)) ctx.log().info(`order ${outs.orderNo}: validation method ${olds.method} → ${outs.method}; records updated`);
    return { outs: toPlainJson(outs) as unknown as ValidationOutputs };
  },

  async read(ctx, id, props) {
    try {
      // Not held to the stored method: a method changed outside Pulumi shows up as a diff.
      const outs = await readRecords(ctx, { orderNo: props.orderNo, domains: props.domains, requestId: props.requestId }, props.method);
      return { id, props: toPlainJson({ ...props, ...outs }) as unknown as ValidationOutputs };
    } catch (e) {
      if (orderIsGone(e)) {
        ctx.log().warn(`order ${props.orderNo} does not exist for this API key (the API answered code 404); the Validation is removed from state`);
        return { id: "", props: {} as ValidationOutputs };
      }
      throw e;
    }
  },

  // Nothing to undo at the service: the records are published by other resources.
  async delete() {},
};
