export type { RuleFailure } from "./failure.js";
export { canonicalName, normaliseName, orderedNames, classifyName, baseName, isAddress, type NameKind } from "./names.js";
export { checkNames, checkDomainType, type NameCounts, type OrderNames, type DomainTypeCheck } from "./domains.js";
export { requiresCompany, readCompanyInfo, checkCompanyPresence, COMPANY_REQUIRED, COMPANY_OPTIONAL, type CompanyInfoResult } from "./company.js";
export { checkTerm, checkAlgorithms } from "./options.js";
export { checkCustomCsr, readCsr, type CsrFacts } from "./csr.js";
export { caBrowserMaxDays, CAB_LIFETIME_STEPS, daysBetween, nextNotAfterAtLeast, renewalConfigured, windowOpensAt, type CertificateLife, type RenewalSettings } from "./lifetime.js";
