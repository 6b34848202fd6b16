/**
 * `pulumi import` of an Order through the provider plugin: what the service
 * can tell becomes the resource's inputs (the CLI prints them as program
 * code) and its state, through the code the dynamic resources run: checked
 * by the Order's `check` and taken over by the adoption of `adoptOrderNo`
 * (nothing bought, nothing submitted).
 */
import { ImportError, type ImportCheck, type Imported } from "../../provider/handlers.js";
import type { ProviderContext } from "../../provider/context.js";
import { toPlainJson } from "../../provider/plain-json.js";
import { productCatalogue } from "../../provider/product-catalogue.js";
import { tryDownload } from "../shared/try-download.js";
import { knownAccount } from "./account.js";
import { adoptOrder } from "./adopt.js";
import type { OrderInputs } from "./inputs.js";
import { importedMethod } from "./reported-method.js";

/**
 * Imports order `orderNo`: GetRecord gives its names and validation method;
 * the product is named only by the certificate download, so the order must be
 * issued. The inputs carry `adoptOrderNo`, so the program the CLI prints says
 * what it does: it holds an order bought elsewhere, and `up` never buys it.
 *
 * @example
 * await importOrder(ctx, "CERT202611250001", checkOrder) // { id: "CERT…", inputs: { productCode, domain, …, adoptOrderNo: "CERT…" }, outputs }
 */
export async function importOrder(ctx: ProviderContext, orderNo: string, check: ImportCheck): Promise<Imported> {
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
  const method = importedMethod(record.verificationMethod);
  const declared: Record<string, unknown> = {
    productCode: products[0]!.productCode,
    domain: record.mainDomain,
    ...(record.sansDomains.length > 0 ? { sanDomains: [...record.sansDomains] } : {}),
    ...(record.wildcardDomains.length > 0 ? { wildcardDomains: [...record.wildcardDomains] } : {}),
    // Only a code `check` takes: plain `email` leaves the input unset.
    ...(method !== undefined ? { verificationMethod: method } : {}),
    adoptOrderNo: orderNo,
  };
  const checked = (await check(declared)) as unknown as OrderInputs;
  const state = { ...(await adoptOrder(api, checked, orderNo)), ...(await knownAccount(ctx)) };
  ctx.log(checked.journalKey).info(`imported order ${orderNo} (${productName}, ${record.mainDomain}); nothing bought`);
  return { id: orderNo, outputs: toPlainJson(state) as Record<string, unknown>, inputs: declared };
}

