import type * as pulumi from "@pulumi/pulumi";
import type { ProviderContext } from "../../provider/context.js";
import type { InputFailure } from "../../schema/property.js";
import { checkInputs } from "../shared/inputs.js";
import { VALIDATION_PROPERTIES } from "./declaration.js";
import type { ValidationInputs } from "./inputs.js";

/** Normalises and checks the inputs ({@link checkValidationInputs}); never calls the service. */
export async function check(_ctx: ProviderContext, _olds: ValidationInputs, news: ValidationInputs): Promise<pulumi.dynamic.CheckResult<ValidationInputs>> {
  const { inputs, failures } = checkValidationInputs(news);
  return { inputs: inputs as ValidationInputs, failures };
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
