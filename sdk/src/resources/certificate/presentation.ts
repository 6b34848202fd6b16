/**
 * The Certificate's presentation: the outputs computed from what it stores,
 * and the inputs the program adds. One implementation for both front ends:
 * the class computes each output in the program, only when read
 * (resource.ts); the provider plugin answers with them at once
 * ({@link derivedOutputs}), its programs having no class: the cheap ones
 * always, the heavy forms only those `outputFormats` lists.
 */
import { combinedPem, fullChainPem, pfxPasswordFor, toPkcs12Base64, toPkcs8Pem } from "../../pem/formats.js";
import { certificateFacts, type CertificateFacts } from "../../pem/inspect.js";
import { windowOpensAt } from "../../rules/lifetime.js";
import { entries, isDerived } from "../../schema/property.js";
import type { Presentation } from "../shared/presentation.js";
import { CERTIFICATE_PROPERTIES, DEFAULT_OUTPUT_FORMATS, OUTPUT_FORMATS, type OutputFormat } from "./declaration.js";
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
 * The outputs the Certificate computes from its stored material: the cheap
 * ones always, each derived form only when `formats` lists it (default: every form).
 *
 * @example
 * const out = derivedOutputs(state, { pfxPassword: "s3cret" }); // out.pfxBase64 opens with "s3cret"
 * derivedOutputs(state, {}, ["fullChainPem"]).pfxBase64 === undefined
 */
export function derivedOutputs(state: CertificateState, given: PresentationInputs, formats: readonly OutputFormat[] = OUTPUT_FORMATS) {
  const wants = (format: OutputFormat) => formats.includes(format);
  const chain = compute.fullChainPem(state.certificatePem, state.chainPem);
  const facts = compute.facts(state.certificatePem);
  const password = wants("pkcs12") ? compute.pfxPassword(state.privateKeyPem, given.pfxPassword) : undefined;
  return {
    csrPem: state.csrPem ?? "",
    fullChainPem: wants("fullChainPem") ? chain : undefined,
    privateKeyPkcs8Pem: wants("privateKeyPkcs8Pem") ? compute.privateKeyPkcs8Pem(state.privateKeyPem) : undefined,
    combinedPem: wants("combinedPem") ? compute.combinedPem(state.privateKeyPem, chain) : undefined,
    serialNumber: facts?.serialNumber,
    fingerprintSha256: facts?.fingerprintSha256,
    notBefore: facts?.notBefore,
    renewsAt: compute.renewsAt(facts?.notBefore, state.notAfter, given),
    renewBeforeDays: given.renewBeforeDays,
    renewBeforePercentage: given.renewBeforePercentage,
    pfxPassword: password,
    pfxBase64: password === undefined ? undefined : compute.pfxBase64(state.privateKeyPem, chain, state.domains, password),
  };
}

/** The forms a plugin program asked for: `outputFormats` as checked, else the default. */
export function requestedFormats(inputs: Readonly<Record<string, unknown>>): readonly OutputFormat[] {
  const listed = inputs.outputFormats;
  if (!Array.isArray(listed)) return DEFAULT_OUTPUT_FORMATS;
  return OUTPUT_FORMATS.filter((f) => listed.includes(f));
}

/** Each form's outputs, from the declarations (`reportedWhen`). */
export const FORM_OUTPUTS = Object.fromEntries(
  OUTPUT_FORMATS.map((format) => [format, entries(CERTIFICATE_PROPERTIES).filter(([, p]) => p.reportedWhen?.value === format).map(([name]) => name)]),
) as Record<OutputFormat, string[]>;

/**
 * The names {@link derivedOutputs} adds, taken off again before the handlers
 * see old outputs: the declared derived outputs, and the program's renewal
 * settings it echoes (inputs the handlers never store).
 */
export const DERIVED_OUTPUT_NAMES: readonly string[] = [
  ...entries(CERTIFICATE_PROPERTIES)
    .filter(([, p]) => isDerived(p))
    .map(([name]) => name),
  "renewBeforeDays",
  "renewBeforePercentage",
];

/** Outputs without any derived one (an earlier release stored every form): what the handlers see, and what a new answer starts from. */
function withoutDerived(outputs: Record<string, unknown>): Record<string, unknown> {
  const kept = { ...outputs };
  for (const name of DERIVED_OUTPUT_NAMES) delete kept[name];
  return kept;
}

const numberOrUndefined = (value: unknown) => (typeof value === "number" ? value : undefined);

export const presentation: Presentation = {
  programInputs: (urn, inputs, side) => {
    // A password for a bundle the plugin will not build: say so rather than leave `pfxBase64` silently absent.
    if (inputs.pfxPassword !== undefined && !requestedFormats(inputs).includes("pkcs12"))
      side.warn(`Certificate "${urn.split("::").pop()}": pfxPassword is given but outputFormats does not list "pkcs12", so pfxBase64 and pfxPassword are not reported; add "pkcs12" to outputFormats`);
    return { ...inputs, ...programInputs(urn) };
  },
  present: (stored, inputs) => {
    const derived = derivedOutputs(
      stored as unknown as CertificateState,
      {
        pfxPassword: typeof inputs.pfxPassword === "string" ? inputs.pfxPassword : undefined,
        renewBeforeDays: numberOrUndefined(inputs.renewBeforeDays),
        renewBeforePercentage: numberOrUndefined(inputs.renewBeforePercentage),
      },
      requestedFormats(inputs),
    );
    // A form not asked for is absent, not null: nothing of it in state.
    return { ...withoutDerived(stored), ...Object.fromEntries(Object.entries(derived).filter(([, v]) => v !== undefined)) };
  },
  stored: withoutDerived,
};
