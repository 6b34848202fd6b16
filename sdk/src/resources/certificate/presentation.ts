/**
 * The Certificate's presentation: the outputs computed from what it stores,
 * and the inputs the program adds. One implementation for both front ends:
 * the class computes each output in the program, only when read
 * (resource.ts); the provider plugin answers with all of them at once
 * ({@link derivedOutputs}), its programs having no class.
 */
import { combinedPem, fullChainPem, pfxPasswordFor, toPkcs12Base64, toPkcs8Pem } from "../../pem/formats.js";
import { certificateFacts, type CertificateFacts } from "../../pem/inspect.js";
import { windowOpensAt } from "../../rules/lifetime.js";
import type { Presentation } from "../shared/presentation.js";
import type { CertificateState } from "./state.js";

/** What the computed outputs depend on besides the stored ones; the program's, not stored. */
export interface PresentationInputs {
  pfxPassword?: string;
  renewBeforeDays?: number;
  renewBeforePercentage?: number;
  termEndsAt?: string;
}

/** The inputs the program adds to the declared ones: the resource's URN, which ties preview warnings to it. */
export const programInputs = <U>(urn: U) => ({ resourceUrn: urn });

/** Each computed output, from the stored outputs it needs (absent ones read as empty). */
export const compute = {
  fullChainPem: (certificatePem: string | undefined, chainPem: string | undefined) => fullChainPem(certificatePem ?? "", chainPem ?? ""),
  privateKeyPkcs8Pem: (privateKeyPem: string | undefined) => toPkcs8Pem(privateKeyPem ?? ""),
  combinedPem: (privateKeyPem: string | undefined, chain: string) => combinedPem(privateKeyPem ?? "", chain),
  facts: (certificatePem: string | undefined): CertificateFacts | undefined => (certificatePem ? certificateFacts(certificatePem) : undefined),
  renewsAt(notBefore: string | undefined, notAfter: string | undefined, given: PresentationInputs): string | undefined {
    if (!notAfter || !notBefore) return undefined;
    const opens = windowOpensAt(
      { notBefore, notAfter, termEndsAt: given.termEndsAt },
      { renewBeforeDays: given.renewBeforeDays, renewBeforePercentage: given.renewBeforePercentage },
    );
    return opens === undefined ? undefined : new Date(opens).toISOString();
  },
  /** The password given, else one derived from the key; empty for a custom-CSR order. Never echoes the value given. */
  pfxPassword(privateKeyPem: string | undefined, given: string | undefined): string {
    if (given === "") throw new Error("pfxPassword must be a non-empty string (omit it to have one derived from the key)");
    return (privateKeyPem ?? "").trim() === "" ? "" : pfxPasswordFor(privateKeyPem ?? "", given);
  },
  pfxBase64: (privateKeyPem: string | undefined, chain: string, domains: string[] | undefined, password: string) =>
    toPkcs12Base64({ privateKeyPem: privateKeyPem ?? "", fullChainPem: chain, password, friendlyName: domains?.[0] }),
};

/**
 * Every output the Certificate computes from its stored material.
 *
 * @example
 * const out = derivedOutputs(state, { pfxPassword: "s3cret" }); // out.pfxBase64 opens with "s3cret"
 */
export function derivedOutputs(state: CertificateState, given: PresentationInputs) {
  const chain = compute.fullChainPem(state.certificatePem, state.chainPem);
  const facts = compute.facts(state.certificatePem);
  const password = compute.pfxPassword(state.privateKeyPem, given.pfxPassword);
  return {
    csrPem: state.csrPem ?? "",
    fullChainPem: chain,
    privateKeyPkcs8Pem: compute.privateKeyPkcs8Pem(state.privateKeyPem),
    combinedPem: compute.combinedPem(state.privateKeyPem, chain),
    serialNumber: facts?.serialNumber,
    fingerprintSha256: facts?.fingerprintSha256,
    notBefore: facts?.notBefore,
    renewsAt: compute.renewsAt(facts?.notBefore, state.notAfter, given),
    renewBeforeDays: given.renewBeforeDays,
    renewBeforePercentage: given.renewBeforePercentage,
    pfxPassword: password,
    pfxBase64: compute.pfxBase64(state.privateKeyPem, chain, state.domains, password),
  };
}

/** The names {@link derivedOutputs} adds: taken off again before the handlers see old outputs. */
export const DERIVED_OUTPUT_NAMES = [
  "fullChainPem",
  "privateKeyPkcs8Pem",
  "combinedPem",
  "serialNumber",
  "fingerprintSha256",
  "notBefore",
  "renewsAt",
  "renewBeforeDays",
  "renewBeforePercentage",
  "pfxPassword",
  "pfxBase64",
] as const satisfies readonly (keyof ReturnType<typeof derivedOutputs>)[];

const numberOrUndefined = (value: unknown) => (typeof value === "number" ? value : undefined);

export const presentation: Presentation = {
  programInputs: (urn, inputs) => ({ ...inputs, ...programInputs(urn) }),
  present: (stored, inputs) => ({
    ...stored,
    ...derivedOutputs(stored as unknown as CertificateState, {
      pfxPassword: typeof inputs.pfxPassword === "string" ? inputs.pfxPassword : undefined,
      renewBeforeDays: numberOrUndefined(inputs.renewBeforeDays),
      renewBeforePercentage: numberOrUndefined(inputs.renewBeforePercentage),
    }),
  }),
  stored: (outputs) => {
    const kept = { ...outputs };
    for (const name of DERIVED_OUTPUT_NAMES) delete kept[name];
    return kept;
  },
};
