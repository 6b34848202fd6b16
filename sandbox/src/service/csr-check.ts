import { parseCsr } from "../ca/index.js";
import type { KeySpec, SignatureAlgorithm } from "../catalogue/types.js";
import { badRequest } from "../errors.js";

const FIELD = "custom_csr";

/**
 * Checks a customer's CSR against the order: a valid self-signature, the main
 * domain as CN (or among the SANs), exactly the ordered names, the company
 * name as organisation for OV/EV, and a key of the ordered algorithm.
 * Returns the key spec the CSR's key amounts to.
 */
export async function checkCustomCsr(
  pem: string,
  order: { names: string[]; mainDomain: string; organization: string | undefined; algorithm: SignatureAlgorithm | undefined; keySpec: KeySpec | undefined },
): Promise<{ keySpec: KeySpec; algorithm: "rsa" | "ecc" }> {
  let csr;
  try {
    csr = await parseCsr(pem);
  } catch (err) {
    throw badRequest(FIELD, `custom_csr is not a usable PEM certificate request: ${(err as Error).message}`);
  }
  if (!csr.signatureValid) throw badRequest(FIELD, "custom_csr has a signature that does not verify with its own public key");

  const csrNames = new Set([...csr.dnsNames, ...csr.ipAddresses].map((n) => n.toLowerCase()));
  const cn = csr.commonName?.toLowerCase();
  if (cn !== undefined && cn !== "") {
    if (cn !== order.mainDomain) {
      throw badRequest(FIELD, `custom_csr has CN ${JSON.stringify(cn)} but the order's main domain is ${JSON.stringify(order.mainDomain)}`);
    }
    csrNames.add(cn);
  } else if (!csrNames.has(order.mainDomain)) {
    throw badRequest(FIELD, `custom_csr names neither as CN nor as SAN the order's main domain ${JSON.stringify(order.mainDomain)}`);
  }
  const wanted = new Set(order.names);
  const missing = [...wanted].filter((n) => !csrNames.has(n));
  const extra = [...csrNames].filter((n) => !wanted.has(n));
  if (missing.length > 0) throw badRequest(FIELD, `custom_csr lacks ordered names: ${missing.join(", ")}`);
  if (extra.length > 0) throw badRequest(FIELD, `custom_csr has names the order does not include: ${extra.join(", ")}`);

  if (order.organization !== undefined) {
    if ((csr.organization ?? "").trim().toLowerCase() !== order.organization.trim().toLowerCase()) {
      throw badRequest(FIELD, `custom_csr organisation (O) ${JSON.stringify(csr.organization ?? "")} must equal company_name ${JSON.stringify(order.organization)}`);
    }
  }

  if (csr.keyAlgorithm === "other") throw badRequest(FIELD, "custom_csr has a key that is neither RSA nor ECDSA");
  if (order.algorithm !== undefined && order.algorithm !== csr.keyAlgorithm) {
    throw badRequest(FIELD, `custom_csr has an ${csr.keyAlgorithm.toUpperCase()} key but signature_algorithm is ${order.algorithm}`);
  }
  const spec = csr.keySpec;
  if (spec === undefined) {
    const what = csr.keyAlgorithm === "rsa" ? `RSA ${csr.keySize ?? "?"} bits` : `curve ${csr.namedCurve ?? "?"}`;
    throw badRequest(FIELD, `custom_csr has a key (${what}) outside the accepted sizes rsa-2048/3072/4096, p-256, p-384`);
  }
  if (order.keySpec !== undefined && order.keySpec !== spec) {
    throw badRequest(FIELD, `custom_csr has a ${spec} key but key_spec is ${order.keySpec}`);
  }
  return { keySpec: spec, algorithm: csr.keyAlgorithm };
}
