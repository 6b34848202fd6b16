import { fileValidation } from "./program";

const out = fileValidation();

export const orderNo = out.orderNo;
export const validationUrls = out.validationUrls;
export const webRoot = out.webRoot;
export const fullChainPem = out.fullChainPem;
export const privateKeyPem = out.privateKeyPem;
export const notAfter = out.notAfter;
