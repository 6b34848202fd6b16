import { wildcardAndOv } from "./program";

const out = wildcardAndOv();

export const orderNo = out.orderNo;
export const price = out.price;
export const domains = out.domains;
export const fullChainPem = out.fullChainPem;
export const privateKeyPem = out.privateKeyPem;
export const notAfter = out.notAfter;
