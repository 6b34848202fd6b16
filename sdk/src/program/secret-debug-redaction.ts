import pulumiLog = require("@pulumi/pulumi/log");

/**
 * The marker the Pulumi runtime puts beside every secret value on the wire
 * (`runtime/rpc.js`, `specialSecretSig`).
 */
export const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";

const INSTALLED = Symbol.for("pulumi-certreseller.secretDebugRedaction");

type DebugLogger = (msg: string, ...rest: unknown[]) => Promise<void>;
interface LogModuleLike {
  debug: DebugLogger;
}

/**
 * Removes secret-bearing payloads from a runtime debug line.
 *
 * Why this exists: @pulumi/pulumi's Node runtime (3.259-3.270) logs every
 * RegisterResource / RegisterResourceOutputs answer at debug level as
 * `resp: ${innerResponse}`, a protobuf `toString` that spells out every
 * property — secret outputs such as `Certificate.privateKeyPem` in plaintext
 * next to the secret signature. The engine forwards debug diagnostics into its
 * event log (what `--event-log`, the Automation API's `onEvent` and CI systems
 * keep), so without this the private key leaves the encrypted state. Only the
 * payload is dropped; the line itself (which RPC, which resource) stays.
 */
export function redactSecretDebugMessage(msg: string): string {
  if (!msg.includes(SECRET_SIGNATURE)) return msg;
  const cut = msg.search(/(resp: |obj=|outputs=)/);
  const head = cut >= 0 ? msg.slice(0, cut) : "";
  return `${head}[payload withheld by pulumi-certreseller: it carries secret values]`;
}

/**
 * Wraps `debug` on a log module so every line passes through
 * {@link redactSecretDebugMessage}. Idempotent. The runtime looks `log.debug`
 * up on the module object at each call (`__importStar` returns the CommonJS
 * module itself), so replacing the property covers its own calls too.
 */
export function installSecretDebugRedaction(logModule: LogModuleLike): void {
  const current = logModule.debug as DebugLogger & { [INSTALLED]?: true };
  if (current[INSTALLED]) return;
  const wrapped: DebugLogger & { [INSTALLED]?: true } = (msg, ...rest) =>
    current.call(logModule, typeof msg === "string" ? redactSecretDebugMessage(msg) : msg, ...rest);
  wrapped[INSTALLED] = true;
  logModule.debug = wrapped;
}

/** True once the program's copy of @pulumi/pulumi has the redaction installed. */
export function secretDebugRedactionInstalled(logModule: LogModuleLike = pulumiLog as unknown as LogModuleLike): boolean {
  return (logModule.debug as { [INSTALLED]?: true })[INSTALLED] === true;
}

installSecretDebugRedaction(pulumiLog as unknown as LogModuleLike);
