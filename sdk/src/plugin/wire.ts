/**
 * Property values as they cross the provider protocol, unwrapped once here.
 *
 * The engine sends a secret as an object carrying the secret signature and
 * its `value`, and (during preview) a value it does not know yet as the
 * unknown sentinel string. The handlers already treat that string as "cannot
 * judge yet" (provider/unknown.ts), exactly as under the dynamic-provider
 * host, so unknowns pass through unchanged; secrets are unwrapped to their
 * value, and which top-level properties were secret is remembered so the
 * answer marks them secret again. Declared-secret outputs (key material,
 * passwords) are wrapped on the way out whatever the inputs were.
 */
import { UNKNOWN } from "../provider/unknown.js";

/** The key and value that mark an object as a secret (Pulumi's `specialSigKey` and secret signature). */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** Resource references and output values: refused in Configure, so they never arrive; named to fail clearly if they do. */
const RESOURCE_SIG = "5cf8f73096256a8f31e491e813e4eb8e";
const OUTPUT_SIG = "d0e6a833031e9bbcd3f4e8bde6ca49a4";

export type Props = Record<string, unknown>;

/** Plain values plus the top-level property names that arrived secret (at any depth within them). */
export interface Unwrapped {
  readonly values: Props;
  readonly secret: ReadonlySet<string>;
}

/**
 * Unwraps the secrets of a property map.
 *
 * @example
 * unwrap({ apiKey: { [SIG_KEY]: SECRET_SIG, value: "ak_1:s" }, baseUrl: "https://x" })
 * // { values: { apiKey: "ak_1:s", baseUrl: "https://x" }, secret: Set { "apiKey" } }
 */
export function unwrap(props: Props | undefined): Unwrapped {
  const values: Props = {};
  const secret = new Set<string>();
  for (const [key, value] of Object.entries(props ?? {})) {
    const found = { secret: false };
    values[key] = plain(value, found, key);
    if (found.secret) secret.add(key);
  }
  return { values, secret };
}

function plain(value: unknown, found: { secret: boolean }, path: string): unknown {
  if (Array.isArray(value)) return value.map((v, i) => plain(v, found, `${path}[${i}]`));
  if (value === null || typeof value !== "object") return value;
  const object = value as Props;
  const sig = object[SIG_KEY];
  if (sig === SECRET_SIG) {
    found.secret = true;
    return plain(object.value, found, path);
  }
  if (sig === RESOURCE_SIG || sig === OUTPUT_SIG) {
    throw new Error(`certreseller: ${path} arrived as a resource reference or output value, which this provider does not accept (the engine should have sent a plain value)`);
  }
  const out: Props = {};
  for (const [k, v] of Object.entries(object)) out[k] = plain(v, found, `${path}.${k}`);
  return out;
}

/** Wraps `value` as a secret (not twice, and never the unknown sentinel: an unknown has no value to hide). */
export function secretValue(value: unknown): unknown {
  if (value === UNKNOWN || value === undefined) return value;
  if (value !== null && typeof value === "object" && (value as Props)[SIG_KEY] === SECRET_SIG) return value;
  return { [SIG_KEY]: SECRET_SIG, value };
}

/**
 * The property map to answer with: undefined members dropped, and the named
 * properties wrapped as secrets.
 *
 * @example
 * wrap({ privateKeyPem: "-----BEGIN…", notAfter: "2027-01-01" }, new Set(["privateKeyPem"]))
 */
export function wrap(values: Props, secret: Iterable<string>): Props {
  const out: Props = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[key] = value;
  for (const key of secret) if (key in out) out[key] = secretValue(out[key]);
  return out;
}
