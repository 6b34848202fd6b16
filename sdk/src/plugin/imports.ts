/**
 * `pulumi import` through the plugin: the engine's Read with an id and no
 * stored state. What the service can tell becomes the resource's inputs (the
 * CLI prints them as program code) and its state, through the same code the
 * dynamic resources run: the Order is checked by its `check` and taken over
 * by the adoption of `adoptOrderNo` (nothing bought, nothing submitted), the
 * Certificate is downloaded and verified as its `create` does.
 */
import type { ProviderContext } from "../provider/context.js";
import { toPlainJson } from "../provider/plain-json.js";
import { productCatalogue } from "../provider/product-catalogue.js";
import { stateFromDownload, tryDownload } from "../resources/certificate/download.js";
import { DEFAULT_TIMEOUT_MINUTES } from "../resources/certificate/inputs.js";
import { knownAccount } from "../resources/order/account.js";
import { adoptOrder } from "../resources/order/adopt.js";
import type { OrderInputs } from "../resources/order/inputs.js";
import type { Props } from "./wire.js";

/** What an import reads: the resource id, its state, and the inputs a program declares it with. */
export interface Imported {
  id: string;
  outputs: Props;
  inputs: Props;
}

/** The Order's `check`, as the plugin runs it (programInputs added, failures thrown). */
export type CheckOrder = (inputs: Props) => Promise<Props>;

/** An import that cannot be done; the message says why and what to do instead. */
export class ImportError extends Error {
  override readonly name = "ImportError";
}

/**
 * Imports order `orderNo`: GetRecord gives its names and validation method;
 * the product is named only by the certificate download, so the order must be
 * issued. The inputs carry `adoptOrderNo`, so the program the CLI prints says
 * what it does: it holds an order bought elsewhere, and `up` never buys it.
 *
 * @example
 * await importOrder(ctx, "CERT202611250001", checkOrder) // { id: "CERT…", inputs: { productCode, domain, …, adoptOrderNo: "CERT…" }, outputs }
 */
export async function importOrder(ctx: ProviderContext, orderNo: string, check: CheckOrder): Promise<Imported> {
  const api = ctx.api();
  const record = await api.getRecord({ orderNo });
  // Not yet issued is an answer (undefined); any other failure is the import's, with its own message.
  const download = (await tryDownload(api, { orderNo })).download;
  if (!download?.productName) {
    throw new ImportError(
      `cannot import order ${orderNo}: ${download ? "its certificate download names no product" : `it has no issued certificate yet (cert_status ${record.certStatus})`}, ` +
        "and the service names an order's product only there. Import it once it is issued, or declare an Order with its productCode, names and `adoptOrderNo: " +
        `${JSON.stringify(orderNo)}\` (\`up\` verifies the order and records it without buying).`,
    );
  }
  const productName = download.productName;
  const products = (await productCatalogue(api)).filter((p) => p.productName === productName);
  if (products.length !== 1) {
    throw new ImportError(
      `cannot import order ${orderNo}: its product ${JSON.stringify(productName)} ${products.length === 0 ? "is not in this account's product list" : `matches ${products.length} product codes (${products.map((p) => p.productCode).join(", ")})`}; ` +
        `declare an Order with the right productCode and \`adoptOrderNo: ${JSON.stringify(orderNo)}\` instead`,
    );
  }
  const declared: Props = {
    productCode: products[0]!.productCode,
    domain: record.mainDomain,
    ...(record.sansDomains.length > 0 ? { sanDomains: [...record.sansDomains] } : {}),
    ...(record.wildcardDomains.length > 0 ? { wildcardDomains: [...record.wildcardDomains] } : {}),
    verificationMethod: record.verificationMethod,
    adoptOrderNo: orderNo,
  };
  const checked = (await check(declared)) as unknown as OrderInputs;
  const state = { ...(await adoptOrder(api, checked, orderNo)), ...(await knownAccount(ctx)) };
  ctx.log(checked.journalKey).info(`imported order ${orderNo} (${productName}, ${record.mainDomain}); nothing bought`);
  return { id: orderNo, outputs: toPlainJson(state) as Props, inputs: declared };
}

/**
 * Imports a certificate by `<order number>/<certificate id>` (or the order
 * number alone: its earliest issued certificate), downloaded and verified
 * as a Certificate's `create` does. The id is the certificate id.
 *
 * @example
 * await importCertificate(ctx, "CERT202611250001/5f0c…") // { id: "5f0c…", inputs: { orderNo, certId }, outputs }
 */
export async function importCertificate(ctx: ProviderContext, importId: string): Promise<Imported> {
  const [orderNo, certId, ...rest] = importId.split("/");
  if (!orderNo || rest.length > 0 || certId === "") {
    throw new ImportError(`cannot import certificate ${JSON.stringify(importId)}: give "<order number>/<certificate id>" (or the order number alone, for its earliest issued certificate)`);
  }
  const target = { orderNo, ...(certId ? { certId } : {}), timeoutMinutes: DEFAULT_TIMEOUT_MINUTES };
  const attempt = await tryDownload(ctx.api(), target);
  if (!attempt.download) throw new ImportError(`cannot import certificate ${JSON.stringify(importId)}: not available (${attempt.notYet})`);
  const { outs } = stateFromDownload(target, attempt.download);
  return { id: outs.certId, outputs: toPlainJson(outs) as Props, inputs: { orderNo, certId: outs.certId } };
}
