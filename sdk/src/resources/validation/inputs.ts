import { isUnknown } from "../../provider/unknown.js";

/** What the Validation provider receives (after the class flattened `{ order }`). */
export interface ValidationInputs {
  orderNo: string;
  /** The ordered names (main, SANs, wildcards), as the program declared them. */
  domains: string[];
  /** The method the Order asks for; a change re-reads the records. */
  method?: string;
  /** The Order's request id; a change re-reads the records. */
  requestId?: string;
}

/** What Validation keeps in state (inputs needed for diff, plus the records). */
export interface ValidationOutputs {
  orderNo: string;
  domains: string[];
  /** The method in effect at the service. */
  method: string;
  /** The service's sign request id (empty when it reports none). */
  requestId: string;
  /** `admin`/`postmaster`/... for e-mail validation, else empty. */
  emailSuffix: string;
  records: import("./records.js").DomainValidationRecord[];
}

const METHODS = new Set(["dns", "cname", "file", "https", "email"]);

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
        const norm = d.trim().toLowerCase().replace(/\.$/, "");
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

  if (news.method !== undefined && !isUnknown(news.method) && !METHODS.has(String(news.method))) {
    failures.push({ property: "method", reason: `method must be one of ${[...METHODS].join(", ")}; got "${String(news.method)}"` });
  }
  if (news.requestId !== undefined && !isUnknown(news.requestId) && typeof news.requestId !== "string") {
    failures.push({ property: "requestId", reason: "requestId must be a string" });
  }
  return { inputs, failures };
}
