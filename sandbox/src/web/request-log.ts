/** One partner request as the management API reports it; the key never appears, only the app id. */
export interface RequestLogEntry {
  at: string;
  requestId: string;
  operation: string;
  appId: string | null;
  orderNo: string | null;
  code: number;
  httpStatus: number;
  durationMs: number;
  fault: string | null;
}

const MAX_ENTRIES = 10_000;

export class RequestLog {
  #entries: RequestLogEntry[] = [];
  readonly #sink: ((line: string) => void) | undefined;

  constructor(sink?: (line: string) => void) {
    this.#sink = sink;
  }

  add(entry: RequestLogEntry): void {
    this.#entries.push(entry);
    if (this.#entries.length > MAX_ENTRIES) this.#entries.splice(0, this.#entries.length - MAX_ENTRIES);
    this.#sink?.(
      `${entry.at} ${entry.requestId} ${entry.operation} code=${entry.code} http=${entry.httpStatus} ${entry.durationMs}ms` +
        `${entry.appId ? ` app=${entry.appId}` : ""}${entry.orderNo ? ` order=${entry.orderNo}` : ""}${entry.fault ? ` fault=${entry.fault}` : ""}`,
    );
  }

  list(): RequestLogEntry[] {
    return [...this.#entries];
  }

  clear(): void {
    this.#entries = [];
  }
}
