/**
 * Validation provider (loaded lazily by the serialized provider; see
 * provider/lazy-provider.ts). Path `resources/validation/handlers.js` is
 * stored in state: keep it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isPartnerApiError } from "../../client/errors.js";
import type { ProviderContext } from "../../provider/context.js";
import type { ResourceHandlers } from "../../provider/handlers.js";
import { toPlainJson } from "../../provider/plain-json.js";
import { isUnknown } from "../../provider/unknown.js";
import { checkValidationInputs, type ValidationInputs, type ValidationOutputs } from "./inputs.js";
import { missingDomains, shapeRecords } from "./records.js";

export const resourceType = "Validation";

/**
 * Reads the order's records with GetRecord (stored records, no rate limit)
 * and checks they cover the declared domains in the expected method, so the
 * records the program publishes are the ones the CA will check.
 */
async function readRecords(ctx: ProviderContext, inputs: ValidationInputs): Promise<ValidationOutputs> {
  const set = await ctx.api().getRecord({ orderNo: inputs.orderNo });
  const method = String(set.verificationMethod ?? set.records[0]?.method ?? "");
  if (set.records.length === 0) {
    throw new Error(
      `order ${inputs.orderNo} has no validation records yet: it has not been submitted for issuance (ApplySign). ` +
        "The Order resource submits it; if its last up failed, run up again so the Order resumes",
    );
  }
  if (inputs.method && method && inputs.method !== method) {
    throw new Error(
      `order ${inputs.orderNo} is validated by method "${method}" at the service, but the program expects "${inputs.method}"; ` +
        "the Order's method change has not reached the service — run up again (or pulumi refresh) so the Order applies it",
    );
  }
  const records = shapeRecords(set.records, method);
  const missing = missingDomains(records, inputs.domains);
  if (missing.length > 0) {
    throw new Error(
      `order ${inputs.orderNo} has no validation record for ${missing.join(", ")} (declared in domains); ` +
        `the order covers ${[...new Set(records.map((r) => r.domain))].join(", ")} — check that domains lists the order's names`,
    );
  }
  return {
    orderNo: inputs.orderNo,
    domains: inputs.domains,
    method,
    requestId: set.requestId ?? "",
    emailSuffix: set.emailSuffix ?? "",
    records,
  };
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
    if (news.method !== undefined && (isUnknown(news.method) || news.method !== olds.method)) changed.push("method");
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
    if (olds.method !== outs.method) ctx.log().info(`order ${outs.orderNo}: validation method ${olds.method} → ${outs.method}; records updated`);
    return { outs: toPlainJson(outs) as unknown as ValidationOutputs };
  },

  async read(ctx, id, props) {
    try {
      // Re-read as the stored method: a method changed outside Pulumi shows up as a diff.
      const outs = await readRecords(ctx, { orderNo: props.orderNo, domains: props.domains });
      return { id, props: toPlainJson({ ...props, ...outs }) as unknown as ValidationOutputs };
    } catch (e) {
      if (isPartnerApiError(e, "not_found")) {
        ctx.log().warn(`order ${props.orderNo} no longer exists for this API key; the Validation is removed from state`);
        return { id: "", props: {} as ValidationOutputs };
      }
      throw e;
    }
  },

  // Nothing to undo at the service: the records are published by other resources.
  async delete() {},
};
