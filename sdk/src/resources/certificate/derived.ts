/**
 * The Certificate's outputs computed from what it stores, all at once: what
 * the provider plugin answers with (its programs have no class to compute
 * them lazily). The class computes each of them in the program from the same
 * functions, only when read (resource.ts).
 */
import { combinedPem, fullChainPem, pfxPasswordFor, toPkcs12Base64, toPkcs8Pem } from "../../pem/formats.js";
import { certificateFacts } from "../../pem/inspect.js";
import { windowOpensAt } from "../../rules/lifetime.js";
import type { CertificateState } from "./state.js";

/** What the derived outputs depend on besides the stored ones; the program's, not stored. */
export interface PresentationInputs {
  pfxPassword?: string;
  renewBeforeDays?: number;
  renewBeforePercentage?: number;
  termEndsAt?: string;
}

/** The inputs that change only derived outputs: a new value re-presents the stored certificate, nothing is downloaded. */
export const PRESENTATION_INPUTS = ["pfxPassword"] as const;

/**
 * Every output the Certificate derives from its stored material.
 *
 * @example
 * const out = derivedOutputs(state, { pfxPassword: "s3cret" }); // out.pfxBase64 opens with "s3cret"
 */
export function derivedOutputs(state: CertificateState, given: PresentationInputs) {
  const key = state.privateKeyPem ?? "";
  const chain = fullChainPem(state.certificatePem ?? "", state.chainPem ?? "");
  const facts = state.certificatePem ? certificateFacts(state.certificatePem) : undefined;
  if (given.pfxPassword === "") throw new Error("pfxPassword must be a non-empty string (omit it to have one derived from the key)");
  const password = key.trim() === "" ? "" : pfxPasswordFor(key, given.pfxPassword);
  const opens =
    state.notAfter && facts
      ? windowOpensAt(
          { notBefore: facts.notBefore, notAfter: state.notAfter, termEndsAt: given.termEndsAt },
          { renewBeforeDays: given.renewBeforeDays, renewBeforePercentage: given.renewBeforePercentage },
        )
      : undefined;
  return {
    csrPem: state.csrPem ?? "",
    fullChainPem: chain,
    privateKeyPkcs8Pem: toPkcs8Pem(key),
    combinedPem: combinedPem(key, chain),
    serialNumber: facts?.serialNumber,
    fingerprintSha256: facts?.fingerprintSha256,
    notBefore: facts?.notBefore,
    renewsAt: opens === undefined ? undefined : new Date(opens).toISOString(),
    renewBeforeDays: given.renewBeforeDays,
    renewBeforePercentage: given.renewBeforePercentage,
    pfxPassword: password,
    pfxBase64: toPkcs12Base64({ privateKeyPem: key, fullChainPem: chain, password, friendlyName: state.domains?.[0] }),
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
