/**
 * What the provider plugin serves, by type token: for each resource, the
 * handler module the dynamic resources also run (HANDLER_MODULES), its
 * declaration (which outputs are secret), and the two things the TypeScript
 * classes do in the program that the plugin must do itself:
 *
 * - `programInputs`: inputs a class computes and sends (the Order's
 *   `journalKey` is its URN; the Certificate's `resourceUrn`), here from the
 *   engine's request;
 * - `present` / `stored`: outputs a class computes from the stored ones (the
 *   Order's full `price`, the Validation's full records, the Certificate's
 *   PEM forms and PKCS#12 pair). The plugin answers with them, and takes them
 *   off again before the handlers see old outputs, so the handlers read the
 *   same state shape through either front end.
 */
import { pluginJournalScope } from "../journal/key.js";
import type { ProviderSettings } from "../provider/config.js";
import type { HandlerName } from "../provider/entry.js";
import { entries, isOutput, type ResourceDeclaration } from "../schema/property.js";
import { CERTIFICATE } from "../resources/certificate/declaration.js";
import { DERIVED_OUTPUT_NAMES, PRESENTATION_INPUTS, derivedOutputs } from "../resources/certificate/derived.js";
import type { CertificateState } from "../resources/certificate/state.js";
import { ORDER } from "../resources/order/declaration.js";
import { RFC2136_RECORD } from "../resources/rfc2136-record/declaration.js";
import { expandPrice, storedPrice, type OrderPriceState } from "../resources/order/stored-price.js";
import { VALIDATION } from "../resources/validation/declaration.js";
import { expandRecords, storeRecords, type DomainValidationRecord, type StoredValidationRecord } from "../resources/validation/records.js";
import { SANDBOX_DNS_RECORD } from "../testing/declarations.js";
import type { Props } from "./wire.js";

export interface ServedResource {
  readonly declaration: ResourceDeclaration;
  readonly handler: HandlerName;
  /** Declared-secret outputs: wrapped as secrets in every answer. */
  readonly secretOutputs: readonly string[];
  /** Inputs the program-side class would add, from the request's URN and the provider's settings (`warn`: a line for the user). */
  programInputs(urn: string, inputs: Props, provider: ProgramSide): Props;
  /** Stored outputs plus what the class computes from them (`inputs`: the resource's current inputs). */
  present(stored: Props, inputs: Props): Props;
  /** The presented outputs back in their stored form, for the handlers. */
  stored(outputs: Props): Props;
  /** Inputs the handlers never see: they change only presented outputs. */
  readonly presentationInputs: readonly string[];
}

/** What `programInputs` may use besides the request. */
export interface ProgramSide {
  readonly settings: ProviderSettings;
  warn(message: string): void;
}

const same = (props: Props) => props;

function served(declaration: ResourceDeclaration, handler: HandlerName, more: Partial<ServedResource> = {}): ServedResource {
  return {
    declaration,
    handler,
    secretOutputs: entries(declaration.properties)
      .filter(([, p]) => p.secret && isOutput(p))
      .map(([name]) => name),
    programInputs: (_urn, inputs) => inputs,
    present: same,
    stored: same,
    presentationInputs: [],
    ...more,
  };
}

const numberOrUndefined = (value: unknown) => (typeof value === "number" ? value : undefined);

export const SERVED_RESOURCES: ReadonlyMap<string, ServedResource> = new Map(
  [
    served(ORDER, "order", {
      // The class sends its URN as the journal key and the organisation as its scope. The engine tells a
      // plugin no organisation: the `organization` setting (required on Pulumi Cloud) stands in for it.
      programInputs: (urn, inputs, { settings, warn }) => {
        const { scope, warning } = pluginJournalScope(settings.organization);
        if (warning) warn(warning);
        return { ...inputs, journalKey: urn, journalScope: scope };
      },
      present: (stored) => (stored.price === undefined ? stored : { ...stored, price: expandPrice(stored.price as OrderPriceState) }),
      stored: (outputs) => (outputs.price === undefined || outputs.price === null ? outputs : { ...outputs, price: storedPrice(outputs.price as OrderPriceState) }),
    }),
    served(VALIDATION, "validation", {
      present: (stored) => ({ ...stored, records: expandRecords(stored.records as StoredValidationRecord[] | undefined, String(stored.method ?? "")) }),
      stored: (outputs) =>
        Array.isArray(outputs.records) ? { ...outputs, records: storeRecords(outputs.records as DomainValidationRecord[], String(outputs.method ?? "")) } : outputs,
    }),
    served(CERTIFICATE, "certificate", {
      programInputs: (urn, inputs) => ({ ...inputs, resourceUrn: urn }),
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
      presentationInputs: PRESENTATION_INPUTS,
    }),
    served(RFC2136_RECORD, "rfc2136-record"),
    served(SANDBOX_DNS_RECORD, "testing/dns-record"),
  ].map((r) => [r.declaration.token, r]),
);
