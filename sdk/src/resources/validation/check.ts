import type * as pulumi from "@pulumi/pulumi";
import { VERIFICATION_METHODS } from "../../client/vocabulary.js";
import type { ProviderContext } from "../../provider/context.js";
import { isUnknown } from "../../provider/unknown.js";
import { normaliseName } from "../../rules/names.js";
import type { ValidationInputs } from "./inputs.js";

/** Normalises and checks the inputs ({@link checkValidationInputs}); never calls the service. */
export async function check(_ctx: ProviderContext, _olds: ValidationInputs, news: ValidationInputs): Promise<pulumi.dynamic.CheckResult<ValidationInputs>> {
  const { inputs, failures } = checkValidationInputs(news);
  return { inputs: inputs as ValidationInputs, failures };
}

/**
 * The spec 4.5 codes, plus `email`: the Order's method output is what
 * ApplySign answered, and the service may answer `email` for any e-mail method.
 */
const METHODS: readonly string[] = [...VERIFICATION_METHODS, "email"];

/**
 * Normalises and checks the inputs. Unknown values (preview) pass; each
 * problem names the property and the rule.
 */
export function checkValidationInputs(news: Partial<ValidationInputs>): {
  inputs: Partial<ValidationInputs>;
  failures: { property: string; reason: string }[];
} {
  const failures: { property: string; reason: string }[] = [];
  const inputs: Partial<ValidationInputs> = { ...news };

  if (!isUnknown(news.orderNo) && (typeof news.orderNo !== "string" || news.orderNo.trim() === "")) {
    failures.push({ property: "orderNo", reason: "orderNo is required: pass `order` (an Order resource) or the order number" });
  } else if (typeof news.orderNo === "string") {
    inputs.orderNo = news.orderNo.trim();
  }

  if (!isUnknown(news.domains)) {
    if (!Array.isArray(news.domains) || news.domains.length === 0) {
      failures.push({ property: "domains", reason: "domains must list the ordered names (at least the main domain)" });
    } else {
      const seen = new Set<string>();
      const out: string[] = [];
      news.domains.forEach((d, i) => {
        if (isUnknown(d)) return void out.push(d);
        if (typeof d !== "string" || d.trim() === "") {
          failures.push({ property: `domains[${i}]`, reason: "each domain must be a non-empty string" });
          return;
        }
        const norm = normaliseName(d);
        if (seen.has(norm)) {
          failures.push({ property: `domains[${i}]`, reason: `"${d}" is listed twice (names are case-insensitive)` });
          return;
        }
        seen.add(norm);
        out.push(norm);
      });
      inputs.domains = out;
    }
  }

  // An Order whose method the service has not reported yet gives an empty string.
  if (news.method === "" || news.method === null) delete inputs.method;
  else if (news.method !== undefined && !isUnknown(news.method) && !METHODS.includes(String(news.method))) {
    const https = news.method === "https" ? " (there is no https method: file validation is served over http, method file)" : "";
    failures.push({ property: "method", reason: `method must be one of ${VERIFICATION_METHODS.join(", ")}; got "${String(news.method)}"${https}` });
  }
  if (news.requestId === null) delete inputs.requestId;
  else if (news.requestId !== undefined && !isUnknown(news.requestId) && typeof news.requestId !== "string") {
    failures.push({ property: "requestId", reason: "requestId must be a string" });
  }
  return { inputs, failures };
}
