/** Where provider lines go; tests pass a collector. `urn` ties the line to a resource when known. */
export type LogSink = (level: "info" | "warn", line: string, urn?: string) => void;

/**
 * The short name of a resource from its URN (`urn:pulumi:dev::proj::type::site`
 * → `site`) or from a `project/stack/name` key; other strings as they are.
 */
export function resourceName(resource: string): string {
  if (resource.startsWith("urn:pulumi:")) return resource.slice(resource.lastIndexOf("::") + 2);
  return resource.slice(resource.lastIndexOf("/") + 1);
}

/**
 * The CLI shows the provider plugin's stdout as plain lines not tied to a
 * resource, so each line names the resource itself. Everything goes to
 * stdout: verified with CLI v3.259, stderr lines written during a preview's
 * diff do not appear at all. `pulumi.log` would add "info: [runtime]" noise.
 */
export const consoleSink: LogSink = (level, line) => {
  console.log(level === "warn" ? `WARNING: ${line}` : line);
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
 * const log = createLog({ type: "Order", name: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::site", secrets: [apiKey] });
 * log.info("order CERT... created, 120.00 charged");
 * ```
 */
export function createLog(args: {
  type: string;
  /** A resource URN (lines then show under that resource, also in previews) or a plain name. */
  name?: string;
  secrets?: readonly (string | undefined)[];
  sink?: LogSink;
}): ProviderLog {
  const sink = args.sink ?? consoleSink;
  const urn = args.name?.startsWith("urn:pulumi:") ? args.name : undefined;
  const prefix = args.name ? `certreseller ${args.type} "${resourceName(args.name)}": ` : `certreseller ${args.type}: `;
  const secrets = (args.secrets ?? []).filter((s): s is string => typeof s === "string" && s.length >= 4);
  const scrub = (message: string): string => secrets.reduce((text, secret) => text.split(secret).join("***"), message);
  return {
    info: (message) => sink("info", scrub(prefix + message), urn),
    warn: (message) => sink("warn", scrub(prefix + message), urn),
  };
}
