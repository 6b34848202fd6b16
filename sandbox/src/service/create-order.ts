import { installmentsAtPurchase } from "../catalogue/lifetimes.js";
import { findProductByCode, findProductById } from "../catalogue/products.js";
import type { KeySpec, Product, SignatureAlgorithm } from "../catalogue/types.js";
import { badRequest, notFound } from "../errors.js";
import type { CompanyInfo, OrderRecord } from "../store/types.js";
import { newCertId, newOrderNo } from "../util/ids.js";
import { toAmount } from "../util/money.js";
import { readCompanyInfo } from "./company.js";
import type { OperationRequest, ServiceContext } from "./context.js";
import { checkCustomCsr } from "./csr-check.js";
import { oneOf, optionalInt, optionalString, type Body } from "./fields.js";
import { readNames } from "./domain-rules.js";
import { charge, priceFor, readDiscountPercent } from "./pricing.js";
import { readMethod, recordKind } from "./records.js";

const DEFAULT_KEY: Record<"rsa" | "ecc", KeySpec> = { rsa: "rsa-2048", ecc: "p-256" };

function findProduct(body: Body): Product {
  const code = optionalString(body, "product_code");
  const id = optionalInt(body, "product_id");
  if (code === undefined && id === undefined) throw badRequest("product_code", "product_code or product_id is required");
  const product = code !== undefined ? findProductByCode(code) : findProductById(id!);
  if (product === undefined) {
    const field = code !== undefined ? "product_code" : "product_id";
    throw notFound(field, `${field} ${JSON.stringify(code ?? id)}: no such product`);
  }
  if (code !== undefined && id !== undefined && product.id !== id) {
    throw badRequest("product_id", `product_id ${id} does not match product_code ${JSON.stringify(code)}`);
  }
  return product;
}

/** `months` wins over `years`; neither means 12 months. */
function readTerm(body: Body, product: Product): number {
  const months = optionalInt(body, "months");
  const years = optionalInt(body, "years");
  const field = months !== undefined ? "months" : years !== undefined ? "years" : "months";
  const term = months ?? (years !== undefined ? years * 12 : 12);
  if (!product.terms.some((t) => t.months === term)) {
    throw badRequest(field, `${field}: a term of ${term} months is not offered by product ${product.code}; offered: ${product.terms.map((t) => t.months).join(", ")} months`);
  }
  return term;
}

/**
 * CreateOrder (spec 4.3): checks every field before any money moves, then
 * charges and records the order with its first certificate awaiting
 * submission. Answers exactly the spec's sixteen fields.
 */
export async function createOrder(ctx: ServiceContext, { account, body }: OperationRequest): Promise<Record<string, unknown>> {
  const product = findProduct(body);
  const names = readNames(body, product);
  const months = readTerm(body, product);

  const algoRaw = optionalString(body, "signature_algorithm")?.toLowerCase();
  const supportedAlgos = Object.keys(product.algorithms) as Array<"rsa" | "ecc">;
  if (algoRaw !== undefined) {
    oneOf("signature_algorithm", algoRaw, ["rsa", "ecc", "sm2"] as const);
    oneOf("signature_algorithm", algoRaw, supportedAlgos, ` by product ${product.code}`);
  }
  const keyRaw = optionalString(body, "key_spec")?.toLowerCase();
  if (keyRaw !== undefined) oneOf("key_spec", keyRaw, ["rsa-2048", "rsa-3072", "rsa-4096", "p-256", "p-384", "sm2"] as const);
  const hash = oneOf("hash_algorithm", optionalString(body, "hash_algorithm")?.toLowerCase() ?? "sha256", product.hashAlgorithms, ` by product ${product.code}`);

  const method = readMethod(body, "verification_method", product) ?? product.defaultMethod;
  if (recordKind(method) === "file" && (names.mainKind === "wildcard" || names.wildcards.length > 0)) {
    throw badRequest("verification_method", "verification_method file cannot validate wildcard names; use dns, cname or an e-mail method");
  }

  let company: CompanyInfo | null = null;
  let companyId: number | null = null;
  if (product.level !== "dv") {
    companyId = optionalInt(body, "company_id") ?? null;
    if (companyId !== null && companyId <= 0) throw badRequest("company_id", "company_id must be a positive integer");
    company = readCompanyInfo(body) ?? null;
    if (companyId === null && company === null) {
      throw badRequest("company_info", `company_info (or company_id) is required for ${product.level.toUpperCase()} product ${product.code}`);
    }
  }

  const paymentMethod = oneOf("payment_method", optionalString(body, "payment_method")?.toLowerCase() ?? "balance", ["balance", "credit"] as const);
  const discountPercent = readDiscountPercent(body);
  const customCsr = optionalString(body, "custom_csr") ?? null;

  let algorithm: "rsa" | "ecc";
  let keySpec: KeySpec;
  if (customCsr !== null) {
    const checked = await checkCustomCsr(customCsr, {
      names: [names.main, ...names.san, ...names.wildcards],
      mainDomain: names.main,
      organization: company?.company_name,
      algorithm: algoRaw as SignatureAlgorithm | undefined,
      keySpec: keyRaw as KeySpec | undefined,
    });
    algorithm = checked.algorithm;
    keySpec = checked.keySpec;
    oneOf("custom_csr", algorithm, supportedAlgos, ` (its key algorithm) by product ${product.code}`);
  } else {
    algorithm = (algoRaw as "rsa" | "ecc" | undefined) ?? (keyRaw?.startsWith("p-") ? "ecc" : supportedAlgos.includes("rsa") ? "rsa" : supportedAlgos[0]!);
    keySpec = (keyRaw as KeySpec | undefined) ?? DEFAULT_KEY[algorithm];
  }
  oneOf("signature_algorithm", algorithm, supportedAlgos, ` by product ${product.code}`);
  oneOf("key_spec", keySpec, product.algorithms[algorithm]!, ` for ${algorithm} by product ${product.code}`);

  const price = priceFor(product, months, names, discountPercent);
  // From here on nothing awaits: the funds check, the charge and the order record happen atomically.
  charge(account, paymentMethod, price.total);
  const now = ctx.clock.nowMs();
  let orderNo = newOrderNo(new Date(now));
  // The sequence in an order number is per process; a restarted sandbox could meet an old one.
  while (ctx.store.orders.has(orderNo)) orderNo = newOrderNo(new Date(now));
  const order: OrderRecord = {
    orderNo,
    accountId: account.id,
    productId: product.id,
    productCode: product.code,
    domain: names.main,
    sanDomains: names.san,
    wildcardDomains: names.wildcards,
    months,
    installmentsCount: installmentsAtPurchase(now, months, product.brand.maxMonthsPerCertificate),
    signatureAlgorithm: algorithm,
    keySpec,
    hashAlgorithm: hash,
    paymentMethod,
    customCsr,
    companyId,
    company,
    remark: optionalString(body, "remark") ?? null,
    price,
    orderStatus: 1,
    paidAt: now,
    createdAt: now,
    certificates: [],
    refund: null,
  };
  order.certificates.push({
    certId: newCertId(), installmentNo: 1, status: 0, requestId: null, submittedAt: null, methodChangedAt: null,
    verificationMethod: method, records: [], caStatus: null, caStatusText: null, issued: null, downloaded: false,
  });
  ctx.store.orders.set(order.orderNo, order);
  ctx.store.markOrder(order);

  const gross = price.total + price.discount;
  return {
    order_no: order.orderNo,
    total_amount: toAmount(gross),
    discount_amount: toAmount(price.discount),
    payable_amount: toAmount(price.total),
    unit_price: toAmount(price.basePrice),
    san_price: toAmount(price.sanPrice),
    wildcard_price: toAmount(price.wildcardPrice),
    extra_san_count: price.sanCount,
    extra_wc_count: price.wildcardCount,
    installments_count: order.installmentsCount,
    total_domains: 1 + names.san.length + names.wildcards.length,
    years: Math.ceil(months / 12),
    months,
    payment_method: paymentMethod,
    // Everything payable is taken at once, from the one source named by payment_method.
    deduct_amount: toAmount(price.total),
    is_custom_csr: customCsr !== null,
  };
}
