import * as pulumi from "@pulumi/pulumi";
import type { DomainTypeCode, Product, VerificationTypeCode } from "../client/types.js";
import { programClient } from "./settings.js";

/** Filters of {@link getProducts}; all optional. */
export interface GetProductsArgs {
  /** `single`, `multi`, `wildcard`, `multi_wildcard`, `flex`, `ip`, `ip_multi`. */
  domainType?: DomainTypeCode;
  brandCode?: string;
  /** `dv`, `ov`, `ev`. */
  verificationType?: VerificationTypeCode;
  /** Fuzzy match on the name. */
  productName?: string;
  /** Exact product code. */
  productCode?: string;
}

/** Inputs of {@link getProductsOutput}. */
export type GetProductsOutputArgs = { [K in keyof GetProductsArgs]?: pulumi.Input<GetProductsArgs[K]> };

export interface GetProductsResult {
  /** Every matching product (all pages), prices as decimal strings. */
  products: Product[];
}

/**
 * Lists the products the account may buy, walking every page of the list.
 *
 * @example
 * ```ts
 * const { products } = await certs.getProducts({ domainType: "multi", verificationType: "dv" });
 * const cheapest = products.sort((a, b) => Number(a.basePrice) - Number(b.basePrice))[0];
 * ```
 */
export async function getProducts(args: GetProductsArgs = {}): Promise<GetProductsResult> {
  const filter = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== ""));
  const products = await programClient().listAllProducts(filter);
  return { products };
}

/**
 * {@link getProducts} as an Output; filters may be Outputs (e.g. from config or other resources).
 *
 * @example
 * ```ts
 * const codes = certs.getProductsOutput({ brandCode: "sandbox" }).products.apply((ps) => ps.map((p) => p.productCode));
 * ```
 */
export function getProductsOutput(args: GetProductsOutputArgs = {}): pulumi.Output<GetProductsResult> {
  return pulumi.output(args).apply((plain) => getProducts(plain as GetProductsArgs));
}
