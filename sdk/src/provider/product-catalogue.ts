import { isPartnerApiError } from "../client/errors.js";
import type { PartnerApi, Product } from "../client/types.js";
import { InvalidSettingError, MissingSettingError, SETTING_SOURCES } from "./config.js";

const catalogues = new WeakMap<PartnerApi, Promise<Product[]>>();
/** Each catalogue by product code, built once: a preview of 400 orders looks a code up 400 times. */
const byCode = new WeakMap<Product[], ReadonlyMap<string, Product>>();

/**
 * The whole product list, fetched once per client per process: a preview of
 * a stack with many orders costs one product-list walk, not one per resource.
 * A failed fetch is cached too, so an unreachable API slows the preview once,
 * not once per resource.
 */
export function productCatalogue(api: PartnerApi): Promise<Product[]> {
  let catalogue = catalogues.get(api);
  if (!catalogue) {
    // A per-attempt limit well under the client's default: a preview should not hang on a dead API.
    catalogue = api.listAllProducts(undefined, { timeoutMs: 15_000 });
    catalogues.set(api, catalogue);
  }
  return catalogue;
}

/**
 * Looks a product up by code in the cached catalogue; undefined when absent.
 *
 * @example
 * ```ts
 * const product = await findProduct(ctx.api(), "sandbox-dv-multi"); // domainTypeCode "multiple-single"
 * ```
 */
export async function findProduct(api: PartnerApi, productCode: string): Promise<Product | undefined> {
  return indexOf(await productCatalogue(api)).get(productCode);
}

/**
 * The catalogue's codes nearest to a code it lacks (a typo, another case):
 * at most `limit`, by edit distance ignoring case, within a third of the
 * code's length (at least 2); none when nothing is that close.
 *
 * @example
 * nearestProductCodes(catalogue, "sandbox-dv-singel") // ["sandbox-dv-single"]
 */
export function nearestProductCodes(catalogue: readonly Product[], productCode: string, limit = 3): string[] {
  const wanted = productCode.toLowerCase();
  const within = Math.max(2, Math.ceil(wanted.length / 3));
  const scored = [...new Set(catalogue.map((p) => p.productCode))]
    .map((code) => ({ code, distance: editDistance(wanted, code.toLowerCase()) }))
    .filter((c) => c.distance <= within);
  return scored
    .sort((a, b) => a.distance - b.distance)
    .slice(0, limit)
    .map((c) => c.code);
}

/** Levenshtein distance (insertions, deletions, substitutions), one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

function indexOf(catalogue: Product[]): ReadonlyMap<string, Product> {
  let index = byCode.get(catalogue);
  if (!index) {
    const map = new Map<string, Product>();
    // The first product with a code wins, as a search of the list would find it.
    for (const product of catalogue) if (!map.has(product.productCode)) map.set(product.productCode, product);
    index = map;
    byCode.set(catalogue, index);
  }
  return index;
}

/**
 * The catalogue for a purchase: the cached list when it answered, else one
 * fresh read (a failed read is cached for previews, but `up` must not
 * give up on a price because an earlier call in this process failed).
 *
 * @example
 * ```ts
 * const product = (await catalogueForPurchase(api)).find((p) => p.productCode === code);
 * ```
 */
export async function catalogueForPurchase(api: PartnerApi): Promise<Product[]> {
  try {
    return await productCatalogue(api);
  } catch {
    const fresh = api.listAllProducts(undefined, { timeoutMs: 30_000 });
    catalogues.set(api, fresh);
    return fresh;
  }
}

/** A setting the user must change, and why; see {@link settingAtFault}. */
export interface SettingFault {
  readonly setting: keyof typeof SETTING_SOURCES;
  /** Names the stack setting and its environment variable, and what the service or the client said; no final full stop. */
  readonly reason: string;
}

/**
 * Tells a configuration error from an outage when the product list (or any
 * read) failed: a missing or refused setting, a key the service refuses
 * (API 401/403), a base URL whose TLS handshake fails (plain HTTP behind
 * `https://`, an untrusted certificate) or a base URL that does not answer
 * as the Partner API (an HTTP 4xx without the API's envelope, or a 2xx that
 * is not the envelope) will not mend by itself, so it names the setting to change. An outage
 * (connection refused, timeout, 5xx, rate limit) gives undefined: it may
 * pass, and the caller decides whether to wait or warn.
 *
 * @example
 * settingAtFault(new MissingSettingError("apiKey"))?.setting // "apiKey"
 * settingAtFault(htmlPage404, settings.baseUrl)?.reason // "the base URL http://… does not answer as the Partner API (…); set certreseller:baseUrl …"
 */
export function settingAtFault(error: unknown, baseUrl?: string): SettingFault | undefined {
  if (error instanceof MissingSettingError || error instanceof InvalidSettingError) return { setting: error.setting, reason: error.message.replace(/\.$/, "") };
  if (!isPartnerApiError(error)) return undefined;
  const set = (setting: "apiKey" | "baseUrl") => {
    const { config, env } = SETTING_SOURCES[setting];
    return `set ${config} (or ${env}) to ${setting === "apiKey" ? "the account's API key" : "the Partner API's base URL"}`;
  };
  if (error.kind === "unauthorized" || error.kind === "forbidden") {
    return { setting: "apiKey", reason: `the service refused the API key (${error.message}); ${set("apiKey")}` };
  }
  if (error.kind === "tls") {
    // A TLS handshake that fails (plain HTTP on the port, an untrusted certificate) fails the same way next time.
    return { setting: "baseUrl", reason: `the base URL${baseUrl ? ` ${baseUrl}` : ""} failed the TLS handshake (${error.message}); ${set("baseUrl")}` };
  }
  const notTheApi =
    error.kind === "malformed_response" || (error.kind === "http_error" && error.httpStatus !== undefined && error.httpStatus < 500 && error.httpStatus !== 429);
  if (notTheApi) return { setting: "baseUrl", reason: `the base URL${baseUrl ? ` ${baseUrl}` : ""} does not answer as the Partner API (${error.message}); ${set("baseUrl")}` };
  return undefined;
}
