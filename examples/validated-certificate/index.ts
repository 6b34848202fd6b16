// The Pulumi program; the logic lives in program.ts so the end-to-end suite
// can run the same program inline.
import { validatedCertificate } from "./program";

const site = validatedCertificate();

export const orderNo = site.orderNo;
export const fullChainPem = site.fullChainPem;
export const notAfter = site.notAfter;
export const privateKeyPem = site.privateKeyPem; // secret
export const pfxBase64 = site.pfxBase64; // secret
export const pfxPassword = site.pfxPassword; // secret
export const combinedPem = site.combinedPem; // secret
export const privateKeyPkcs8Pem = site.privateKeyPkcs8Pem; // secret
