import { findProductByCode, findProductById } from "../catalogue/products.js";
import type { KeySpec, MethodCode, Product, SignatureAlgorithm } from "../catalogue/types.js";
import { ApiError, badRequest } from "../errors.js";
import type { CompanyInfo, OrderRecord } from "../store/types.js";
import { newCertId, newOrderNo } from "../util/ids.js";
import { formatMoney } from "../util/money.js";
import { formatDateTime } from "../util/time.js";
import { accountMoney } from "./account-view.js";
import { readCompanyInfo } from "./company.js";
import type { OperationRequest, ServiceContext } from "./context.js";
import { checkCustomCsr } from "./csr-check.js";
import { oneOf, optionalInt, optionalString, type Body } from "./fields.js";
import { readNames } from "./domain-rules.js";
import { charge, priceFor, readDiscountPercent, renderPrice } from "./pricing.js";
import { EMAIL_SUFFIXES } from "./records.js";

const DEFAULT_KEY: Record<"rsa" | "ecc", KeySpec> = { rsa: "rsa-2048", ecc: "p-256" };

function findProduct(body: Body): Product {
  const code = optionalString(body, "product_code");
  const id = optionalInt(body, "product_id");
  if (code === undefined && id === undefined) throw badRequest("product_code", "product_code or product_id is required");
  const product = code !== undefined ? findProductByCode(code) : findProductById(id!);
  if (product === undefined) {
    const field = code !== undefined ? "product_code" : "product_id";
    throw new ApiError(404, `${field} ${JSON.stringify(code ?? id)}: no such product`, { field });
  }
  if (code !== undefined && id !== undefined && product.id !== id) {
    throw badRequest("product_id", `product_id ${id} does not match product_code ${JSON.stringify(code)} (id ${product.id})`);
  }
  return product;
}

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
 * CreateOrder: checks every field before any money moves, then charges and
 * records the order with its first certificate awaiting submission.
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

  const method = oneOf(
    "verification_method",
    optionalString(body, "verification_method")?.toLowerCase() ?? product.defaultMethod,
    product.methods,
    ` by product ${product.code}`,
  ) as MethodCode;
  if ((method === "file" || method === "https") && (names.mainKind === "wildcard" || names.wildcards.length > 0)) {
    throw badRequest("verification_method", `verification_method ${method} cannot validate wildcard names; use dns, cname or email`);
  }
  const suffixRaw = optionalString(body, "email_suffix")?.toLowerCase();
  const emailSuffix = method === "email" ? oneOf("email_suffix", suffixRaw ?? "admin", EMAIL_SUFFIXES) : null;

  let company: CompanyInfo | null = null;
  let companyId: number | null = null;
  if (product.level !== "dv") {
    companyId = optionalInt(body, "company_id") ?? null;
    if (companyId !== null && companyId <= 0) throw badRequest("company_id", "company_id must be a positive integer");
    company = readCompanyInfo(body) ?? null;
    if (companyId === null && company === null) {
      throw badRequest("company_info", `company_id or company_info is required for ${product.level.toUpperCase()} product ${product.code}`);
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
    installmentsCount: Math.ceil(months / product.brand.maxMonthsPerCertificate),
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
    verificationMethod: method, emailSuffix, records: [], caStatus: null, caStatusText: null, issued: null, downloaded: false,
  });
  ctx.store.orders.set(order.orderNo, order);
  ctx.store.markOrder(order);

  const money = accountMoney(account);
  return {
    order_no: order.orderNo,
    order_status: order.orderStatus,
    cert_status: 0,
    product_code: product.code,
    product_name: product.name,
    domain: order.domain,
    san_domains: order.sanDomains,
    wildcard_domains: order.wildcardDomains,
    months,
    years: months / 12,
    installments_count: order.installmentsCount,
    signature_algorithm: algorithm,
    key_spec: keySpec,
    hash_algorithm: hash,
    verification_method: method,
    payment_method: paymentMethod,
    price: renderPrice(price),
    amount: formatMoney(price.total),
    balance_after: money.balance,
    credit_available_after: money.credit_available,
    paid_at: formatDateTime(now),
    created_at: formatDateTime(now),
  };
}
