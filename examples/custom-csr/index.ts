import { customCsr } from "./program";

const out = customCsr();

export const orderNo = out.orderNo;
export const csrPem = out.csrPem;
export const publicKeyPem = out.publicKeyPem;
export const fullChainPem = out.fullChainPem;
export const privateKeyPem = out.privateKeyPem;
export const notAfter = out.notAfter;
