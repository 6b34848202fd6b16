import * as pulumi from "@pulumi/pulumi";
import type { DomainTypeCode, Product, VerificationTypeCode } from "../client/types.js";
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
  refuseOldDomainType(args.domainType);
  const filter = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== ""));
  const products = await programClient().listAllProducts(filter);
  return { products };
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
