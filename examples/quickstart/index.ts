// The Pulumi program: `pulumi up` here or at the repository root (whose
// Pulumi.yaml points at this folder). The logic lives in program.ts so the
// end-to-end suite can run the same program inline.
import { quickstart } from "./program";

const out = quickstart();

export const orderNo = out.orderNo;
export const pricePaid = out.pricePaid;
export const certificatePem = out.certificatePem;
export const fullChainPem = out.fullChainPem;
export const privateKeyPem = out.privateKeyPem;
export const notAfter = out.notAfter;
export const serialNumber = out.serialNumber;
