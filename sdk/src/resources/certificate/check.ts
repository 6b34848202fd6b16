import type * as pulumi from "@pulumi/pulumi";
import type { ProviderContext } from "../../provider/context.js";
import { containsUnknown, isUnknown } from "../../provider/unknown.js";
import { parseDnsServers } from "../../dns/server-address.js";
import { DEFAULT_TIMEOUT_MINUTES, MAX_PROPAGATION_MINUTES, MAX_TIMEOUT_MINUTES, type CertificateInputs } from "./inputs.js";

/** Checks the inputs ({@link checkCertificateInputs}); never calls the service. */
export async function check(_ctx: ProviderContext, _olds: CertificateInputs, news: CertificateInputs): Promise<pulumi.dynamic.CheckResult<CertificateInputs>> {
  const { inputs, failures } = checkCertificateInputs(news);
  return { inputs: inputs as CertificateInputs, failures };
}

/** Normalises and checks the inputs; the wait defaults to {@link DEFAULT_TIMEOUT_MINUTES}. Each problem names the property. */
export function checkCertificateInputs(news: Partial<CertificateInputs>): {
  inputs: Partial<CertificateInputs>;
  failures: { property: string; reason: string }[];
} {
  const failures: { property: string; reason: string }[] = [];
  const inputs: Partial<CertificateInputs> = { ...news };
  if (!isUnknown(news.orderNo)) {
    if (typeof news.orderNo !== "string" || news.orderNo.trim() === "") {
      failures.push({ property: "orderNo", reason: "orderNo is required: the order number (e.g. order.orderNo)" });
    } else {
      inputs.orderNo = news.orderNo.trim();
    }
  }
  if (news.installmentNo !== undefined && !isUnknown(news.installmentNo)) {
    if (typeof news.installmentNo !== "number" || !Number.isInteger(news.installmentNo) || news.installmentNo < 1) {
      failures.push({ property: "installmentNo", reason: `installmentNo must be a whole number from 1 (the first certificate of the order); got ${JSON.stringify(news.installmentNo)}` });
    }
  }
  if (news.certId !== undefined && !isUnknown(news.certId) && (typeof news.certId !== "string" || news.certId.trim() === "")) {
    failures.push({ property: "certId", reason: "certId must be a non-empty string (the certificate's UUID)" });
  }
  if (news.timeoutMinutes === undefined) {
    inputs.timeoutMinutes = DEFAULT_TIMEOUT_MINUTES;
  } else if (!isUnknown(news.timeoutMinutes)) {
    const t = news.timeoutMinutes;
    if (typeof t !== "number" || !Number.isFinite(t) || t <= 0 || t > MAX_TIMEOUT_MINUTES) {
      failures.push({ property: "timeoutMinutes", reason: `timeoutMinutes must be a number of minutes above 0 and at most ${MAX_TIMEOUT_MINUTES} (7 days); got ${JSON.stringify(t)}` });
    }
  }
  failures.push(...checkPropagationInputs(news, inputs));
  return { inputs, failures };
}

/** The propagation check's inputs; `propagationResolvers` is written back in canonical `address:port` form. */
function checkPropagationInputs(news: Partial<CertificateInputs>, inputs: Partial<CertificateInputs>): { property: string; reason: string }[] {
  const failures: { property: string; reason: string }[] = [];
  const given = (value: unknown) => value !== undefined && value !== null && !isUnknown(value);
  if (given(news.propagationCheck) && typeof news.propagationCheck !== "boolean") {
    failures.push({ property: "propagationCheck", reason: `propagationCheck must be true or false; got ${JSON.stringify(news.propagationCheck)}` });
  }
  const minutes = news.propagationTimeoutMinutes;
  if (given(minutes) && (typeof minutes !== "number" || !Number.isFinite(minutes) || minutes <= 0 || minutes > MAX_PROPAGATION_MINUTES)) {
    failures.push({
      property: "propagationTimeoutMinutes",
      reason: `propagationTimeoutMinutes must be a number of minutes above 0 and at most ${MAX_PROPAGATION_MINUTES} (a day); got ${JSON.stringify(minutes)}`,
    });
  }
  if (given(news.propagationResolvers) && !containsUnknown(news.propagationResolvers)) {
    const parsed = parseDnsServers(news.propagationResolvers);
    if (parsed.reason !== undefined) failures.push({ property: "propagationResolvers", reason: `propagationResolvers ${parsed.reason}` });
    else inputs.propagationResolvers = parsed.servers;
  }
  return failures;
}
