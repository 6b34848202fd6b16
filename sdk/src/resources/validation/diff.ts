import type * as pulumi from "@pulumi/pulumi";
import type { ProviderContext } from "../../provider/context.js";
import { isUnknown } from "../../provider/unknown.js";
import { sameMethod } from "../shared/verification-method.js";
import type { ValidationInputs } from "./inputs.js";
import type { ValidationState } from "./state.js";

/**
 * A new order number (or an unknown one) replaces; other domains, another
 * method or request id re-read the records in place. `olds` are the OLD OUTPUTS.
 */
export async function diff(_ctx: ProviderContext, _id: string, olds: ValidationState, news: ValidationInputs): Promise<pulumi.dynamic.DiffResult> {
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
}

function sameDomains(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (!a || !b) return a === b;
  const sa = [...a].sort();
  const sb = [...b].sort();
  return sa.length === sb.length && sa.every((d, i) => d === sb[i]);
}
