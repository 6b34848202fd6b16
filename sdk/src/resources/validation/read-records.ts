import { CertStatus, describeCertStatus, emailSuffixOf } from "../../client/vocabulary.js";
import type { ProviderContext } from "../../provider/context.js";
import { sameMethod } from "../shared/verification-method.js";
import type { ValidationInputs } from "./inputs.js";
import { effectiveMethod, missingDomains, shapeValidationRecords, storeRecords } from "./records.js";
import type { ValidationState } from "./state.js";

/**
 * Reads the order's records with GetRecord (stored records, no rate limit)
 * and checks they cover the declared domains in the expected method, so the
 * records the program publishes are the ones the CA will check.
 *
 * `methodHint` only helps name an e-mail method the service reports as bare
 * `email`; `inputs.method`, when given, must agree with the service.
 */
export async function readRecords(ctx: ProviderContext, inputs: ValidationInputs, methodHint?: string): Promise<ValidationState> {
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
