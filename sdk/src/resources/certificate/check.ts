import type * as pulumi from "@pulumi/pulumi";
import type { ProviderContext } from "../../provider/context.js";
import type { InputFailure } from "../../schema/property.js";
import { checkInputs } from "../shared/inputs.js";
import { CERTIFICATE_PROPERTIES } from "./declaration.js";
import type { CertificateInputs } from "./inputs.js";

/** Checks the inputs ({@link checkCertificateInputs}); never calls the service. */
export async function check(_ctx: ProviderContext, _olds: CertificateInputs, news: CertificateInputs): Promise<pulumi.dynamic.CheckResult<CertificateInputs>> {
  const { inputs, failures } = checkCertificateInputs(news);
  return { inputs: inputs as CertificateInputs, failures };
}

/**
 * Normalises and checks the inputs by their declarations (the wait defaults
 * to `DEFAULT_TIMEOUT_MINUTES`); what the class adds (`resourceUrn`,
 * `timeoutOrigin`) is kept as sent. Each problem names the property.
 */
export function checkCertificateInputs(news: Partial<CertificateInputs>): { inputs: Partial<CertificateInputs>; failures: InputFailure[] } {
  const { values, failures } = checkInputs(CERTIFICATE_PROPERTIES, news);
  return { inputs: { ...news, ...values }, failures };
}
