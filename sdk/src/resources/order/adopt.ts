import { isPartnerApiError } from "../../client/errors.js";
import { CertStatus, type PartnerApi } from "../../client/types.js";
import { findProduct } from "../../provider/index.js";
import { baseName } from "../../rules/index.js";
import { describe, parseServiceTime } from "./sign.js";
import type { OrderInputs, OrderState } from "./types.js";

/** An order could not be adopted; the message says why and what to do. */
export class AdoptionError extends Error {
  override readonly name = "AdoptionError";
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

/**
 * Takes over an existing order without buying: the API must show that it
 * exists and belongs to this account (GetRecord answers 404 otherwise) and
 * that it covers exactly the declared names; when it is issued, the product
 * is compared too (only the download names the product). This is the way to
 * import an order: Pulumi's `import` option cannot load a dynamic provider.
 */
export async function adoptOrder(api: PartnerApi, inputs: OrderInputs, orderNo: string): Promise<OrderState> {
  let stored;
  try {
    stored = await api.getRecord({ orderNo });
  } catch (error) {
    if (isPartnerApiError(error, "not_found")) {
      throw new AdoptionError(`cannot adopt order ${orderNo}: it does not exist or belongs to another account (GetRecord answered 404)`, { cause: error });
    }
    throw new AdoptionError(`cannot adopt order ${orderNo}: ${describe(error)}`, { cause: error });
  }
  const declared = sorted([inputs.domain, ...inputs.sanDomains, ...inputs.wildcardDomains].map(baseName));
  let actual: string[];
  let status;
  if (stored.records.length === 0 && (stored.certStatus === CertStatus.AwaitingSubmission || stored.certStatus === CertStatus.IssuanceFailed)) {
    // Before submission the API lists no names at all; submitting is what
    // create does next anyway, and its answer carries one record per name.
    try {
      const signed = await api.applySign({ orderNo });
      stored = { ...stored, certStatus: signed.certStatus, requestId: signed.requestId, records: signed.records };
    } catch (error) {
      throw new AdoptionError(`cannot adopt order ${orderNo}: submitting it to read its names failed (${describe(error)})`, { cause: error });
    }
  }
  if (stored.records.length > 0) {
    actual = sorted(stored.records.map((r) => baseName(r.domain.toLowerCase())));
  } else {
    try {
      status = await api.getCertificateStatus({ orderNo });
    } catch (error) {
      const wait = isPartnerApiError(error, "rate_limited") && error.retryAfter ? ` Try again in ${error.retryAfter} s.` : "";
      throw new AdoptionError(`cannot adopt order ${orderNo}: its names could not be read (${describe(error)}).${wait}`, { cause: error });
    }
    actual = sorted(status.domainStatuses.map((d) => baseName(d.domain.toLowerCase())));
  }
  if (JSON.stringify(actual) !== JSON.stringify(declared)) {
    throw new AdoptionError(
      `cannot adopt order ${orderNo}: it covers ${actual.join(", ") || "no names"} but this Order declares ${declared.join(", ")}; ` +
        "make domain/sanDomains/wildcardDomains match the order, or adopt a different order",
    );
  }
  let endDateText = status?.endDate ?? undefined;
  if (stored.certStatus === CertStatus.Issued) {
    const [download, product] = await Promise.all([
      api.downloadCertificate({ orderNo }),
      findProduct(api, inputs.productCode).catch(() => undefined),
    ]);
    if (product && download.productName && download.productName !== product.productName) {
      throw new AdoptionError(
        `cannot adopt order ${orderNo}: it is for ${JSON.stringify(download.productName)} but productCode ${inputs.productCode} is ${JSON.stringify(product.productName)}`,
      );
    }
    endDateText ??= download.endDate ?? undefined;
  }
  const { __provider: _provider, ...rest } = inputs;
  const endDate = endDateText ? parseServiceTime(endDateText) : undefined;
  return {
    ...rest,
    orderNo,
    certStatus: stored.certStatus ?? status?.certStatus ?? CertStatus.AwaitingSubmission,
    orderStatus: status?.orderStatus,
    requestId: stored.requestId ?? undefined,
    records: stored.records,
    verificationMethod: stored.verificationMethod ?? inputs.verificationMethod,
    termEndsAt: endDate?.toISOString(),
    adopted: true,
  };
}
