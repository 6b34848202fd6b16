/** The Validation's presentation: its full records computed from their compact stored form, for the class and the provider plugin alike. */
import type { Presentation } from "../shared/presentation.js";
import { expandRecords, storeRecords, type DomainValidationRecord, type StoredValidationRecord } from "./records.js";

export const presentation: Presentation = {
  present: (stored) => ({ ...stored, records: expandRecords(stored.records as StoredValidationRecord[] | undefined, String(stored.method ?? "")) }),
  stored: (outputs) =>
    Array.isArray(outputs.records) ? { ...outputs, records: storeRecords(outputs.records as DomainValidationRecord[], String(outputs.method ?? "")) } : outputs,
};
