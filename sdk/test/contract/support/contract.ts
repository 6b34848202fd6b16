import { expect } from "vitest";
import { PartnerApiError, type PartnerClient, type PartnerClientOptions } from "../../../src/client/index.js";
import { useScriptedClients, type RecordedRequest } from "../../support/partner-api/index.js";

// Helpers for the contract tests: a client against a real scripted HTTP
// server that records what reached the wire, and tables that turn one row
// per specification field into a wire answer and back.

export const API_KEY = "ak_CONTRACTcontractCONTRACT:" + "c".repeat(64);

/** Registers the file's server hooks; `client()` also collects `logger.warn` lines into `warnings`. */
export function useContractClients(defaults: Partial<PartnerClientOptions> = {}) {
  const scripted = useScriptedClients(API_KEY, { retry: false, ...defaults });
  const warnings: string[] = [];
  return {
    get server() {
      return scripted.server;
    },
    warnings,
    client(options: Partial<PartnerClientOptions> = {}): PartnerClient {
      warnings.length = 0;
      return scripted.client({ logger: { warn: (m) => warnings.push(m) }, ...options });
    },
    /** The one request the test made. */
    only(): RecordedRequest {
      expect(scripted.server.requests).toHaveLength(1);
      return scripted.server.requests[0]!;
    },
  };
}

/** Sets `value` at a dotted path (`user.id`), creating objects on the way. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  let node = target;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[keys.at(-1)!] = value;
}

/** Reads a dotted path. */
export function getPath(source: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], source);
}

/** One specification field: its wire path, the value an answer carries, its public path, the value the client yields. */
export type FieldRow = readonly [wire: string, wireValue: unknown, camel: string, expected: unknown];

/** An answer `data` built from the rows (every listed field present). */
export function answerFrom(rows: readonly FieldRow[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [wire, value] of rows) setPath(data, wire, value);
  return data;
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function failure(promise: Promise<unknown>): Promise<PartnerApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PartnerApiError);
  return error as PartnerApiError;
}

/** Form pairs without the key (checked separately). */
export function fieldsOf(request: RecordedRequest): [string, string][] {
  return request.form.filter(([k]) => k !== "apikey");
}

/** The spec's general rules for every request (section 1, 5): POST, form body, path under /partner/, `apikey` field. */
export function expectSpecRequest(request: RecordedRequest, operation: string): void {
  expect(request.method).toBe("POST");
  expect(request.path).toBe(`/partner/${operation}/`);
  expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
  expect(request.form.filter(([k]) => k === "apikey")).toEqual([["apikey", API_KEY]]);
}
