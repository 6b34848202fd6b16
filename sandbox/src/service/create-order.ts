import { findProductByCode, findProductById } from "../catalogue/products.js";
import type { KeySpec, MethodCode, Product, SignatureAlgorithm } from "../catalogue/types.js";
import { ApiError, badRequest } from "../errors.js";
import type { AccountRecord, CompanyInfo, OrderRecord, PriceBreakdown } from "../store/types.js";
import { newCertId, newOrderNo } from "../util/ids.js";
import { formatMoney, type Cents } from "../util/money.js";
import { formatDateTime } from "../util/time.js";
import { accountMoney } from "./account-view.js";
import { readCompanyInfo } from "./company.js";
import type { OperationRequest, ServiceContext } from "./context.js";
import { checkCustomCsr } from "./csr-check.js";
import { oneOf, optionalInt, optionalString, stringList, type Body } from "./fields.js";
import { classifyName, type NameKind } from "./names.js";
import { EMAIL_SUFFIXES } from "./records.js";

const DEFAULT_KEY: Record<"rsa" | "ecc", KeySpec> = { rsa: "rsa-2048", ecc: "p-256" };

/** Coupons the sandbox knows: a percentage off the total. */
const COUPON_CODES: Record<string, number> = { SANDBOX10: 10, WELCOME20: 20 };
const COUPON_IDS: Record<number, number> = { 1: 10, 2: 20 };

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

interface Names {
  main: string;
  mainKind: NameKind;
  san: string[];
  wildcards: string[];
}

function readNames(body: Body, product: Product): Names {
  const mainRaw = optionalString(body, "domain", "main_domain");
  if (mainRaw === undefined || mainRaw === "") throw badRequest("domain", "domain is required");
  const main = classifyName(mainRaw);
  if ("error" in main) throw badRequest("domain", `domain ${JSON.stringify(mainRaw)} ${main.error}`);
  const sanList = stringList(body, "san_domains");
  const wcList = stringList(body, "wildcard_domains", "wc_domains");

  const seen = new Map<string, string>([[main.name, "domain"]]);
  const claim = (name: string, field: string): void => {
    const first = seen.get(name);
    if (first !== undefined) throw badRequest(field, `${field}: ${name} appears more than once (already in ${first}); each name may be ordered once`);
    seen.set(name, field);
  };
  const san = sanList.values.map((raw) => {
    const n = classifyName(raw);
    if ("error" in n) throw badRequest(sanList.name, `${sanList.name}: ${JSON.stringify(raw)} ${n.error}`);
    if (n.kind === "wildcard") throw badRequest(sanList.name, `${sanList.name}: ${n.name} is a wildcard; wildcards belong in wildcard_domains`);
    claim(n.name, sanList.name);
    return { ...n };
  });
  const wildcards = wcList.values.map((raw) => {
    const n = classifyName(raw);
    if ("error" in n) throw badRequest(wcList.name, `${wcList.name}: ${JSON.stringify(raw)} ${n.error}`);
    if (n.kind !== "wildcard") throw badRequest(wcList.name, `${wcList.name}: ${n.name} is not a wildcard (*.example.com); plain names belong in san_domains`);
    claim(n.name, wcList.name);
    return n.name;
  });

  const type = product.domainType;
  const label = `product ${product.code} (domain type ${type})`;
  const requireMain = (kinds: NameKind[], what: string): void => {
    if (!kinds.includes(main.kind)) throw badRequest("domain", `domain must be ${what} for ${label}, got ${main.name}`);
  };
  const none = (list: unknown[], field: string): void => {
    if (list.length > 0) throw badRequest(field, `${field} must be empty for ${label}`);
  };
  const ipOnly = type === "ip" || type === "ip_multi";
  for (const s of san) {
    if (ipOnly && s.kind !== "ip") throw badRequest(sanList.name, `${sanList.name}: ${s.name} is not an IP address; ${label} takes IP addresses only`);
    if (!ipOnly && s.kind === "ip") throw badRequest(sanList.name, `${sanList.name}: ${s.name} is an IP address; ${label} takes domain names only`);
  }
  switch (type) {
    case "single":
      requireMain(["fqdn"], "one domain name (no wildcard, no IP)");
      none(san, sanList.name);
      none(wildcards, wcList.name);
      break;
    case "multi":
      requireMain(["fqdn"], "a domain name (no wildcard, no IP)");
      none(wildcards, wcList.name);
      break;
    case "wildcard":
      requireMain(["wildcard"], "one wildcard such as *.example.com");
      none(san, sanList.name);
      none(wildcards, wcList.name);
      break;
    case "multi_wildcard":
      requireMain(["wildcard"], "a wildcard such as *.example.com");
      none(san, sanList.name);
      break;
    case "flex":
      requireMain(["fqdn", "wildcard"], "a domain name or a wildcard");
      break;
    case "ip":
      requireMain(["ip"], "one public IP address");
      none(san, sanList.name);
      none(wildcards, wcList.name);
      break;
    case "ip_multi":
      requireMain(["ip"], "a public IP address");
      none(wildcards, wcList.name);
      break;
  }
  const singles = san.length + (main.kind === "wildcard" ? 0 : 1);
  const wild = wildcards.length + (main.kind === "wildcard" ? 1 : 0);
  if (singles > product.maxSingleDomains) {
    throw badRequest(sanList.name, `${sanList.name}: ${singles} domain names in total exceed the maximum of ${product.maxSingleDomains} for ${label}`);
  }
  if (wild > product.maxWildcards) {
    throw badRequest(wcList.name, `${wcList.name}: ${wild} wildcards in total exceed the maximum of ${product.maxWildcards} for ${label}`);
  }
  return { main: main.name, mainKind: main.kind, san: san.map((s) => s.name), wildcards };
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

function readDiscountPercent(body: Body): number {
  const type = optionalString(body, "coupon_type");
  const code = optionalString(body, "coupon_code");
  const id = optionalInt(body, "coupon_id");
  if (type === undefined && code === undefined && id === undefined) return 0;
  const kind = type ?? (code !== undefined ? "code" : "coupon");
  oneOf("coupon_type", kind, ["coupon", "code"] as const);
  if (kind === "code") {
    if (code === undefined) throw badRequest("coupon_code", "coupon_code is required when coupon_type is code");
    const pct = COUPON_CODES[code.toUpperCase()];
    if (pct === undefined) throw badRequest("coupon_code", `coupon_code ${JSON.stringify(code)} is not a valid coupon`);
    return pct;
  }
  if (id === undefined) throw badRequest("coupon_id", "coupon_id (integer) is required when coupon_type is coupon");
  const pct = COUPON_IDS[id];
  if (pct === undefined) throw badRequest("coupon_id", `coupon_id ${id} is not a valid coupon`);
  return pct;
}

export function priceFor(product: Product, months: number, names: Names, discountPercent: number): PriceBreakdown {
  const term = product.terms.find((t) => t.months === months)!;
  const sanCount = names.san.length;
  const wildcardCount = names.wildcards.length;
  // The base price covers the main name only, whatever its kind.
  const gross = term.price + sanCount * term.sanPrice + wildcardCount * term.wildcardPrice;
  const discount = Math.round((gross * discountPercent) / 100);
  return {
    basePrice: term.price, sanCount, sanPrice: term.sanPrice, wildcardCount, wildcardPrice: term.wildcardPrice,
    discount, total: gross - discount,
  };
}

export function renderPrice(p: PriceBreakdown): Record<string, unknown> {
  return {
    base_price: formatMoney(p.basePrice),
    san_count: p.sanCount, san_price: formatMoney(p.sanPrice), san_total: formatMoney(p.sanCount * p.sanPrice),
    wildcard_count: p.wildcardCount, wildcard_price: formatMoney(p.wildcardPrice),
    wildcard_total: formatMoney(p.wildcardCount * p.wildcardPrice),
    discount: formatMoney(p.discount), total: formatMoney(p.total),
  };
}

/** Takes the money, or explains which of balance/credit is short. Never mixes the two. */
function charge(account: AccountRecord, method: "balance" | "credit", total: Cents): void {
  if (account.status === 0) throw new ApiError(403, "account is banned");
  if (method === "balance") {
    if (account.balance < total) {
      throw badRequest("payment_method", `insufficient balance: the order costs ${formatMoney(total)}, the balance is ${formatMoney(account.balance)} (payment_method balance does not draw on credit)`);
    }
    account.balance -= total;
  } else {
    const available = account.creditLimit - account.creditUsed;
    if (available < total) {
      throw badRequest("payment_method", `insufficient credit: the order costs ${formatMoney(total)}, available credit is ${formatMoney(available)} (payment_method credit does not draw on the balance)`);
    }
    account.creditUsed += total;
  }
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
