import type * as pulumi from "@pulumi/pulumi";
import type { ProviderContext } from "../../provider/context.js";
import { isUnknown } from "../../provider/unknown.js";
import { canonicalName } from "../../rules/index.js";
import { recordNames } from "../shared/record-names.js";
import type { InputFailure } from "../../schema/property.js";
import { checkInputs } from "../shared/inputs.js";
import { VALIDATION_PROPERTIES } from "./declaration.js";
import type { ValidationInputs } from "./inputs.js";

/**
 * Normalises and checks the inputs ({@link checkValidationInputs}), then,
 * when the order is already known, that every declared domain is one of its
 * names (GetRecord: stored records, no rate limit, no side effect), so a
 * program that writes the names twice fails its preview rather than its `up`.
 */
export async function check(ctx: ProviderContext, _olds: ValidationInputs, news: ValidationInputs): Promise<pulumi.dynamic.CheckResult<ValidationInputs>> {
  const { inputs, failures } = checkValidationInputs(news);
  if (failures.length === 0) failures.push(...(await namesNotOrdered(ctx, inputs)));
  return { inputs: inputs as ValidationInputs, failures };
}

/**
 * The declared domains the order does not cover, as a failure of `domains`;
 * none while the order number or a domain is unknown (a preview before the
 * Order exists), when the order lists no names yet, or when it cannot be read
 * (create reads it again and says why).
 */
async function namesNotOrdered(ctx: ProviderContext, inputs: Partial<ValidationInputs>): Promise<InputFailure[]> {
  const { orderNo, domains } = inputs;
  if (typeof orderNo !== "string" || isUnknown(orderNo) || !Array.isArray(domains) || domains.some((d) => typeof d !== "string" || isUnknown(d))) return [];
  let set;
  try {
    set = await ctx.api().getRecord({ orderNo });
  } catch {
    return [];
  }
  const names = recordNames(set);
  if (names.length === 0) return [];
  const missing = domains.filter((d) => !names.includes(canonicalName(d)));
  if (missing.length === 0) return [];
  return [
    {
      property: "domains",
      reason:
        `${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not among order ${orderNo}'s names (${names.join(", ")}): list only names the Order buys, ` +
        "and read them from it instead of writing them twice (YAML: `domains: [\"${order.domain}\"]`; TypeScript: `new Validation(name, { order })`)",
    },
  ];
}

/**
 * Normalises and checks the inputs by their declarations (`parse.ts`).
 * Unknown values (preview) pass; each problem names the property and the
 * rule; an unset method or request id (empty, null) is left out.
 */
export function checkValidationInputs(news: Partial<ValidationInputs>): { inputs: Partial<ValidationInputs>; failures: InputFailure[] } {
  const { values, failures } = checkInputs(VALIDATION_PROPERTIES, news);
  const inputs: Record<string, unknown> = { ...news, ...values };
  for (const key of ["method", "requestId"]) if (inputs[key] === undefined || inputs[key] === null) delete inputs[key];
  return { inputs: inputs as Partial<ValidationInputs>, failures };
}
