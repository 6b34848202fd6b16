import * as pulumi from "@pulumi/pulumi";
import type { DomainTypeCode, PartnerApi, Product, VerificationTypeCode } from "../client/types.js";
import { DOMAIN_TYPE_CODES, isDomainTypeCode } from "../client/vocabulary.js";
import { afterDependencies, checkInvokeOptions } from "./invoke-options.js";
import { programClient } from "./settings.js";

/**
 * Filters of {@link getProducts}; all optional.
 *
 * @example
 * ```ts
 * const args: GetProductsArgs = { domainType: "multiple-mix", verificationType: "dv" };
 * ```
 */
export interface GetProductsArgs {
  /**
   * A spec 2.3 domain type: `single`, `wildcard`, `multiple-single`,
   * `multiple-wildcard`, `multiple-mix`, `ipv4`, `ipv6`.
   */
  domainType?: DomainTypeCode;
  brandCode?: string;
  /** `dv`, `ov`, `ev`. */
  verificationType?: VerificationTypeCode;
  /** Fuzzy match on the name. */
  productName?: string;
  /** Exact product code. */
  productCode?: string;
}

/**
 * Inputs of {@link getProductsOutput}: the same filters, each may be an Output.
 *
 * @example
 * ```ts
 * const args: GetProductsOutputArgs = { brandCode: config.require("brand") };
 * ```
 */
export type GetProductsOutputArgs = { [K in keyof GetProductsArgs]?: pulumi.Input<GetProductsArgs[K]> };

/**
 * Result of {@link getProducts}.
 *
 * @example
 * ```ts
 * const { products }: GetProductsResult = await certs.getProducts();
 * ```
 */
export interface GetProductsResult {
  /**
   * Every matching product (all pages), as the product list reports it:
   * `domainTypeCode` a spec 2.3 code, prices two-place decimal strings,
   * terms in `validYears`, limits in `maxSingleDomains` / `maxWildcards`.
   */
  products: Product[];
}

/**
 * Lists the products the account may buy, walking every page of the list.
 *
 * @example
 * ```ts
 * const { products } = await certs.getProducts({ domainType: "multiple-single", verificationType: "dv" });
 * const cheapest = products.sort((a, b) => Number(a.basePrice) - Number(b.basePrice))[0];
 * const mine = await certs.getProducts({ brandCode: "sandbox" }, { parent: this }); // inside a component
 * ```
 *
 * `opts`: Pulumi's `InvokeOptions`; `parent` is accepted (no effect),
 * `provider` is refused (the stack config chooses the account).
 */
export async function getProducts(args: GetProductsArgs = {}, opts?: pulumi.InvokeOptions): Promise<GetProductsResult> {
  checkInvokeOptions("getProducts", opts);
  return selectProducts(programClient(), args);
}

/**
 * The products of `api`'s account that match `args`: what {@link getProducts}
 * returns, and what the provider plugin answers its invoke with.
 *
 * @example
 * const { products } = await selectProducts(api, { brandCode: "sandbox" });
 */
export async function selectProducts(api: PartnerApi, args: GetProductsArgs): Promise<GetProductsResult> {
  refuseOldDomainType(args.domainType);
  const products = await productList(api);
  // Copies: a program may sort or change what it gets without changing the next call's answer.
  return { products: structuredClone(products.filter(matches(args))) };
}

const lists = new WeakMap<PartnerApi, Promise<Product[]>>();

/**
 * The whole product list, read (every page) once per client per program
 * process and filtered here: a program calling getProducts for each of its
 * certificates costs one walk of the ~57 KB list, not one per call. A failed
 * read is not kept, so the next call tries again.
 */
function productList(api: PartnerApi): Promise<Product[]> {
  let list = lists.get(api);
  if (!list) {
    const reading = api.listAllProducts();
    list = reading;
    lists.set(api, reading);
    reading.catch(() => {
      if (lists.get(api) === reading) lists.delete(api);
    });
  }
  return list;
}

/**
 * The list's filters applied to the whole list, as the service applies them:
 * codes exactly, the verification type in either case, the name as a
 * case-insensitive fragment ("fuzzy"). An empty filter value filters nothing.
 */
function matches(args: GetProductsArgs): (product: Product) => boolean {
  const given = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v.trim());
  const domainType = given(args.domainType);
  const brandCode = given(args.brandCode);
  const verificationType = given(args.verificationType)?.toLowerCase();
  const productCode = given(args.productCode);
  const productName = given(args.productName)?.toLowerCase();
  return (p) =>
    (domainType === undefined || p.domainTypeCode === domainType) &&
    (brandCode === undefined || p.brandCode === brandCode) &&
    (verificationType === undefined || p.verificationTypeCode.toLowerCase() === verificationType) &&
    (productCode === undefined || p.productCode === productCode) &&
    (productName === undefined || p.productName.toLowerCase().includes(productName));
}

/** The domain type codes of earlier releases, and the spec 2.3 code each became. */
const RENAMED_DOMAIN_TYPES: Readonly<Record<string, DomainTypeCode>> = {
  multi: "multiple-single",
  multi_wildcard: "multiple-wildcard",
  flex: "multiple-mix",
  ip: "ipv4",
};

/** A program written for the old codes gets the new name instead of an empty list or a bare refusal. */
function refuseOldDomainType(domainType: string | undefined): void {
  if (domainType === undefined || domainType === "" || isDomainTypeCode(domainType)) return;
  const renamed = RENAMED_DOMAIN_TYPES[domainType];
  throw new Error(
    `getProducts: domainType ${JSON.stringify(domainType)} is not a domain type code` +
      (renamed ? `; it is now ${JSON.stringify(renamed)}` : "") +
      ` (codes: ${DOMAIN_TYPE_CODES.join(", ")})`,
  );
}

/**
 * {@link getProducts} as an Output; filters may be Outputs (e.g. from config
 * or other resources). `opts` is Pulumi's `InvokeOutputOptions`: with
 * `dependsOn` the list is read once those resources exist.
 *
 * @example
 * ```ts
 * const codes = certs.getProductsOutput({ brandCode: "sandbox" }).products.apply((ps) => ps.map((p) => p.productCode));
 * const after = certs.getProductsOutput({}, { dependsOn: [order], parent: component });
 * ```
 */
export function getProductsOutput(args: GetProductsOutputArgs = {}, opts?: pulumi.InvokeOutputOptions): pulumi.Output<GetProductsResult> {
  checkInvokeOptions("getProductsOutput", opts);
  return pulumi.all([pulumi.output(args), afterDependencies(opts)]).apply(([plain]) => getProducts(plain as GetProductsArgs));
}
