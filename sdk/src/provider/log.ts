/** Where provider lines go; tests pass a collector. */
export type LogSink = (level: "info" | "warn", line: string) => void;

/**
 * The dynamic-provider host passes the plugin's stdout/stderr to the CLI as
 * plain lines not tied to a resource, so each line names the resource itself.
 * `pulumi.log` would add "info: [runtime]" noise there, hence plain console.
 */
export const consoleSink: LogSink = (level, line) => {
  if (level === "warn") console.error(line);
  else console.log(line);
};

/** Progress and warning lines for one resource, with secrets scrubbed. */
export interface ProviderLog {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Makes a logger whose lines read `certreseller Order "site": <message>`.
 * Every string in `secrets` is replaced by `***` — a last line of defence if
 * an upstream message ever echoed the key.
 *
 * @example
 * ```ts
 * const log = createLog({ type: "Order", name: "site", secrets: [apiKey] });
 * log.info("order CERT... created, 120.00 charged");
 * ```
 */
export function createLog(args: {
  type: string;
  name?: string;
  secrets?: readonly (string | undefined)[];
  sink?: LogSink;
}): ProviderLog {
  const sink = args.sink ?? consoleSink;
  const prefix = args.name ? `certreseller ${args.type} "${args.name}": ` : `certreseller ${args.type}: `;
  const secrets = (args.secrets ?? []).filter((s): s is string => typeof s === "string" && s.length >= 4);
  const scrub = (message: string): string => secrets.reduce((text, secret) => text.split(secret).join("***"), message);
  return {
    info: (message) => sink("info", scrub(prefix + message)),
    warn: (message) => sink("warn", scrub(prefix + message)),
  };
}
