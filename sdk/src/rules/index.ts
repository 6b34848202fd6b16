export type { RuleFailure } from "./failure.js";
export type { OrderSpec } from "./order-spec.js";
export { canonicalName, classifyName, baseName, isAddress, type NameKind } from "./names.js";
export { checkNames, checkDomainType, type NameCounts, type OrderNames, type DomainTypeCheck } from "./domains.js";
export { requiresCompany, readCompanyInfo, checkCompanyPresence, COMPANY_REQUIRED, COMPANY_OPTIONAL, type CompanyInfoResult } from "./company.js";
export { checkTerm, checkAlgorithms } from "./options.js";
export { checkCustomCsr, readCsr, type CsrFacts } from "./csr.js";
export { quote, toCents, fromCents, type Quote } from "./price.js";
export { checkOrder, type OrderCheck } from "./check-order.js";
