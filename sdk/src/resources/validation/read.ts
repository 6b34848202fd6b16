import type * as pulumi from "@pulumi/pulumi";
import { isPartnerApiError } from "../../client/errors.js";
import type { ProviderContext } from "../../provider/context.js";
import { toPlainJson } from "../../provider/plain-json.js";
import { readRecords } from "./read-records.js";
import type { ValidationState } from "./state.js";

/**
 * Evidence that the order is gone: the API's own envelope said 404 (no such
 * order for this key). An HTTP 404 page from a proxy, a wrong base URL or an
 * outage proves nothing and must fail the refresh instead.
 */
function orderIsGone(error: unknown): boolean {
  return isPartnerApiError(error, "not_found") && error.code === 404;
}

/**
 * Re-reads the records (refresh); an order the API says no longer exists
 * removes the Validation from state with a warning.
 */
export async function read(ctx: ProviderContext, id: string, props: ValidationState): Promise<pulumi.dynamic.ReadResult<ValidationState>> {
  try {
    // Not held to the stored method: a method changed outside Pulumi shows up as a diff.
    const outs = await readRecords(ctx, { orderNo: props.orderNo, domains: props.domains, requestId: props.requestId }, props.method);
    return { id, props: toPlainJson({ ...props, ...outs }) as unknown as ValidationState };
  } catch (e) {
    if (orderIsGone(e)) {
      ctx.log().warn(`order ${props.orderNo} does not exist for this API key (the API answered code 404); the Validation is removed from state`);
      return { id: "", props: {} as ValidationState };
    }
    throw e;
  }
}
