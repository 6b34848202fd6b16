import { isOperationName, type OperationName } from "../service/operations.js";

/** How one operation misbehaves. Rates are probabilities in [0, 1]; `true` means always. */
export interface FaultSpec {
  /** Answer `errorCode` without performing the operation. */
  errorRate?: number;
  errorCode?: number;
  /** Added before the operation runs. */
  latencyMs?: number;
  /** Destroy the connection without an answer, before the operation runs. */
  reset?: boolean | number;
  /** Answer a body that is not JSON, without performing the operation. */
  malformed?: boolean | number;
  /** Perform the operation, then fail the answer: HTTP 500, or a dropped connection. */
  commitThenFail?: "500" | "drop";
  /** Fire at most this many times, then clear (absent = until changed). */
  times?: number;
}

export type FaultSettings = Partial<Record<OperationName, FaultSpec>>;

/** What the front end must do for one request, decided before the operation runs. */
export interface FaultDecision {
  latencyMs: number;
  before: "reset" | "malformed" | { errorCode: number } | undefined;
  after: "500" | "drop" | undefined;
}

const rate = (v: boolean | number | undefined): number => (v === true ? 1 : typeof v === "number" ? v : 0);

export class FaultRegistry {
  #settings: FaultSettings = {};

  constructor(initial: FaultSettings = {}) {
    this.replace(initial);
  }

  get(): FaultSettings {
    return structuredClone(this.#settings);
  }

  /** Validates and replaces the whole configuration; throws naming the bad entry. */
  replace(settings: unknown): void {
    this.#settings = parseFaultSettings(settings);
  }

  /** Merges per operation (PUT semantics of the management API: the listed operations are replaced). */
  merge(settings: unknown): void {
    this.#settings = { ...this.#settings, ...parseFaultSettings(settings) };
  }

  clear(): void {
    this.#settings = {};
  }

  decide(op: OperationName, random: () => number = Math.random): FaultDecision {
    const spec = this.#settings[op];
    const decision: FaultDecision = { latencyMs: 0, before: undefined, after: undefined };
    if (spec === undefined) return decision;
    decision.latencyMs = spec.latencyMs ?? 0;
    if (random() < rate(spec.reset)) decision.before = "reset";
    else if (random() < rate(spec.malformed)) decision.before = "malformed";
    else if (random() < (spec.errorRate ?? 0)) decision.before = { errorCode: spec.errorCode ?? 500 };
    else if (spec.commitThenFail !== undefined) decision.after = spec.commitThenFail;
    const fired = decision.before !== undefined || decision.after !== undefined || decision.latencyMs > 0;
    if (fired && spec.times !== undefined) {
      spec.times -= 1;
      if (spec.times <= 0) delete this.#settings[op];
    }
    return decision;
  }
}

function isRate(v: unknown): boolean {
  return v === undefined || typeof v === "boolean" || (typeof v === "number" && v >= 0 && v <= 1);
}

export function parseFaultSettings(input: unknown): FaultSettings {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new TypeError("faults must be an object keyed by operation name");
  }
  const out: FaultSettings = {};
  for (const [op, raw] of Object.entries(input)) {
    if (!isOperationName(op)) throw new TypeError(`faults: unknown operation ${JSON.stringify(op)}`);
    if (typeof raw !== "object" || raw === null) throw new TypeError(`faults.${op} must be an object`);
    const s = raw as Record<string, unknown>;
    const known = ["errorRate", "errorCode", "latencyMs", "reset", "malformed", "commitThenFail", "times"];
    for (const k of Object.keys(s)) if (!known.includes(k)) throw new TypeError(`faults.${op}.${k} is not a fault knob; known: ${known.join(", ")}`);
    if (s.errorRate !== undefined && !(typeof s.errorRate === "number" && s.errorRate >= 0 && s.errorRate <= 1)) {
      throw new TypeError(`faults.${op}.errorRate must be a number from 0 to 1`);
    }
    if (s.errorCode !== undefined && !(typeof s.errorCode === "number" && [400, 401, 403, 404, 429, 500, 502, 503].includes(s.errorCode))) {
      throw new TypeError(`faults.${op}.errorCode must be one of 400, 401, 403, 404, 429, 500, 502, 503`);
    }
    if (s.latencyMs !== undefined && !(typeof s.latencyMs === "number" && s.latencyMs >= 0 && s.latencyMs <= 600_000)) {
      throw new TypeError(`faults.${op}.latencyMs must be a number of milliseconds from 0 to 600000`);
    }
    if (!isRate(s.reset)) throw new TypeError(`faults.${op}.reset must be a boolean or a rate from 0 to 1`);
    if (!isRate(s.malformed)) throw new TypeError(`faults.${op}.malformed must be a boolean or a rate from 0 to 1`);
    if (s.commitThenFail !== undefined && s.commitThenFail !== "500" && s.commitThenFail !== "drop") {
      throw new TypeError(`faults.${op}.commitThenFail must be "500" or "drop"`);
    }
    if (s.times !== undefined && !(typeof s.times === "number" && Number.isInteger(s.times) && s.times > 0)) {
      throw new TypeError(`faults.${op}.times must be a positive integer`);
    }
    out[op] = { ...(s as FaultSpec) };
  }
  return out;
}
