import type { PartnerApi, Product } from "../client/types.js";

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
