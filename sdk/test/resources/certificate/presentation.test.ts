// The plugin's presentation of a Certificate: which derived outputs each
// `outputFormats` value adds (the declarations' `reportedWhen`, which the
// package schema and the reference read) is what it computes.
import { beforeAll, describe, expect, it } from "vitest";
import { CERTIFICATE_PROPERTIES, OUTPUT_FORMATS } from "../../../src/resources/certificate/declaration.js";
import { DERIVED_OUTPUT_NAMES, derivedOutputs, FORM_OUTPUTS, presentation, requestedFormats } from "../../../src/resources/certificate/presentation.js";
import { entries, isDerived, storageNote } from "../../../src/schema/property.js";
import type { CertificateState } from "../../../src/resources/certificate/state.js";
import { opensslChain, type TestChain } from "../../../../tests/support/openssl.js";

let state: CertificateState;
beforeAll(() => {
  const chain: TestChain = opensslChain(["present.example.com"]);
  state = { certificatePem: chain.leafPem, chainPem: chain.intermediatePem, privateKeyPem: chain.leafKeyPem, domains: ["present.example.com"] } as CertificateState;
});

const reported = (out: Record<string, unknown>) => Object.keys(out).filter((k) => out[k] !== undefined);

describe("Certificate output formats", () => {
  it("each format adds exactly the outputs declared for it, and each derived form belongs to one format", () => {
    const base = reported(derivedOutputs(state, {}, []));
    for (const format of OUTPUT_FORMATS) {
      const added = reported(derivedOutputs(state, {}, [format])).filter((k) => !base.includes(k));
      expect(added.sort(), format).toEqual([...FORM_OUTPUTS[format]].sort());
    }
    expect(reported(derivedOutputs(state, {})).sort()).toEqual([...base, ...Object.values(FORM_OUTPUTS).flat()].sort());
  });

  it("declares derived exactly the outputs the plugin computes (besides the echoed renewal settings), so the schema says where each comes from", () => {
    const declared = entries(CERTIFICATE_PROPERTIES)
      .filter(([, p]) => isDerived(p))
      .map(([name]) => name);
    // Every key derivedOutputs answers with, but the stored CSR, is one the handlers never see.
    const computed = Object.keys(derivedOutputs(state, {})).filter((name) => name !== "csrPem");
    expect([...DERIVED_OUTPUT_NAMES].sort()).toEqual(computed.sort());
    expect(declared.sort()).toEqual(computed.filter((n) => !["renewBeforeDays", "renewBeforePercentage"].includes(n)).sort());
    for (const name of declared) expect(storageNote(CERTIFICATE_PROPERTIES[name as keyof typeof CERTIFICATE_PROPERTIES]), name).toMatch(/provider plugin .* keeps it in state/);
    expect(storageNote(CERTIFICATE_PROPERTIES.serialNumber)).toMatch(/always reports it, and the engine keeps it in state\.$/);
    expect(storageNote(CERTIFICATE_PROPERTIES.pfxBase64)).toMatch(/lists `"pkcs12"`, and the engine keeps it in state, encrypted\.$/);
    expect(storageNote(CERTIFICATE_PROPERTIES.fullChainPem)).toMatch(/as it does when unset/);
    expect(storageNote(CERTIFICATE_PROPERTIES.notAfter)).toBeUndefined();
  });

  it("unset asks for the full chain alone; the plugin's answer holds no form not asked for, even one an earlier release stored", () => {
    expect(requestedFormats({})).toEqual(["fullChainPem"]);
    expect(requestedFormats({ outputFormats: [] })).toEqual([]);
    const stored = presentation.stored!({ ...state, pfxBase64: "old", combinedPem: "old", fullChainPem: "old" });
    const answer = presentation.present!(stored, { outputFormats: ["combinedPem"] });
    expect(Object.keys(answer).filter((k) => Object.values(FORM_OUTPUTS).flat().includes(k))).toEqual(["combinedPem"]);
    expect(answer.combinedPem).toMatch(/^-----BEGIN PRIVATE KEY-----[\s\S]+BEGIN CERTIFICATE[\s\S]+BEGIN CERTIFICATE/);
  });

  it("a pfxPassword without \"pkcs12\" in outputFormats gets a warning naming both", () => {
    const warnings: string[] = [];
    const side = { settings: {} as never, warn: (m: string) => warnings.push(m) };
    presentation.programInputs!("urn:pulumi:dev::p::certreseller:index:Certificate::site", { orderNo: "1", pfxPassword: "p", outputFormats: ["pkcs12"] }, side);
    presentation.programInputs!("urn:pulumi:dev::p::certreseller:index:Certificate::site", { orderNo: "1" }, side);
    expect(warnings).toEqual([]);
    presentation.programInputs!("urn:pulumi:dev::p::certreseller:index:Certificate::site", { orderNo: "1", pfxPassword: "p" }, side);
    expect(warnings).toEqual(['Certificate "site": pfxPassword is given but outputFormats does not list "pkcs12", so pfxBase64 and pfxPassword are not reported; add "pkcs12" to outputFormats']);
  });
});
