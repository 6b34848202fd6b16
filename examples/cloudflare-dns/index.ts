import { cloudflareDns } from "./program";

const out = cloudflareDns();

export const orderNo = out.orderNo;
export const recordNames = out.recordNames;
export const fullChainPem = out.fullChainPem;
export const privateKeyPem = out.privateKeyPem;
export const notAfter = out.notAfter;
