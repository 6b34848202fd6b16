/**
 * go-plugin's side of starting a provider: Terraform (or OpenTofu) starts the
 * process with a magic cookie and the protocol versions it speaks in the
 * environment, plus its own client certificate; the provider answers with
 * one line on stdout naming the protocol, the socket and its own
 * certificate, and then logs to stderr as hclog JSON lines.
 */
import { webcrypto } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { format } from "node:util";
import type * as X509 from "@peculiar/x509";

/** The cookie go-plugin's Terraform handshake sets: a process started without it was not started by Terraform. */
export const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
export const MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
/** The only plugin protocol this provider speaks (tfplugin6). */
export const PROTOCOL_VERSION = 6;
/** go-plugin's own version of its handshake line (the `1` first). */
const CORE_PROTOCOL_VERSION = 1;

/** A start the process must refuse, with the message for the user. */
export class HandshakeError extends Error {
  override name = "HandshakeError";
}

export interface HandshakeSettings {
  /** The client's certificate (PEM), to require of every connection; absent when TLS is off. */
  readonly clientCertPem?: string;
  /** TF_DISABLE_PLUGIN_TLS: plaintext, for test harnesses that ask for it. */
  readonly tlsDisabled: boolean;
}

/**
 * Checks the environment Terraform starts a provider with: the magic cookie,
 * a protocol list that offers 6, and (unless TLS is disabled) the client
 * certificate.
 *
 * @example
 * readHandshakeEnv({ TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "5,6", PLUGIN_CLIENT_CERT: pem });
 * // { clientCertPem: pem, tlsDisabled: false }
 */
export function readHandshakeEnv(env: NodeJS.ProcessEnv, program = "terraform-provider-certreseller"): HandshakeSettings {
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    throw new HandshakeError(
      `${program} is a plugin for Terraform and OpenTofu: it is started by \`terraform\` or \`tofu\` (from a configuration whose required_providers names it), not run directly. ${MAGIC_COOKIE_KEY} is ${env[MAGIC_COOKIE_KEY] === undefined ? "not set" : "set, but not to the value Terraform sets"}.`,
    );
  }
  const offered = parseProtocolVersions(env.PLUGIN_PROTOCOL_VERSIONS);
  if (!offered.includes(PROTOCOL_VERSION)) {
    throw new HandshakeError(
      `${program} speaks plugin protocol ${PROTOCOL_VERSION} only, and this client offers ${offered.length === 0 ? "none (PLUGIN_PROTOCOL_VERSIONS is empty)" : offered.join(", ")}: use Terraform 1.0 or later, or OpenTofu.`,
    );
  }
  const tlsDisabled = (env.TF_DISABLE_PLUGIN_TLS ?? "") !== "";
  const clientCertPem = env.PLUGIN_CLIENT_CERT?.trim() || undefined;
  if (!tlsDisabled && clientCertPem === undefined) {
    throw new HandshakeError(`${program}: PLUGIN_CLIENT_CERT is not set: Terraform passes its certificate there, and the provider accepts only that client. (A test harness can set TF_DISABLE_PLUGIN_TLS=1 to serve plaintext.)`);
  }
  if (clientCertPem !== undefined && !clientCertPem.includes("-----BEGIN CERTIFICATE-----")) {
    throw new HandshakeError(`${program}: PLUGIN_CLIENT_CERT does not hold a PEM certificate (-----BEGIN CERTIFICATE-----)`);
  }
  return { clientCertPem, tlsDisabled };
}

/**
 * The protocol versions the client offers, as go-plugin sends them (`"6,5"`,
 * `"5,6"`); entries that are not numbers are ignored, as go-plugin does.
 */
export function parseProtocolVersions(text: string | undefined): number[] {
  return (text ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => /^\d+$/.test(part))
    .map(Number);
}

/** The provider's TLS identity for one run. */
export interface ServerCertificate {
  readonly certPem: string;
  /** Secret: never logged. */
  readonly keyPem: string;
  readonly certDer: Buffer;
}

/**
 * A fresh self-signed P-256 certificate for `localhost`, as go-plugin's own
 * servers make one: the client pins exactly this certificate (from the
 * handshake line) and checks the name `localhost`.
 */
export async function generateServerCertificate(now: Date = new Date()): Promise<ServerCertificate> {
  // Loaded here, not at the top: it costs about 130 ms and only this start needs it.
  require("reflect-metadata");
  const x509 = require("@peculiar/x509") as typeof X509;
  const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
  const crypto = webcrypto as unknown as NonNullable<Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[1]>;
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair;
  const serial = Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)));
  serial[0] = serial[0]! & 0x7f; // a positive serial number
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serial.toString("hex"),
      name: "CN=localhost",
      // Some slack for a client whose clock is a little behind.
      notBefore: new Date(now.getTime() - 60 * 60 * 1000),
      notAfter: new Date(now.getTime() + 365 * 24 * 60 * 60 * 1000),
      signingAlgorithm: algorithm,
      keys: keys as never,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
        new x509.SubjectAlternativeNameExtension([{ type: "dns", value: "localhost" }]),
      ],
    },
    crypto,
  );
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey("pkcs8", keys.privateKey));
  return {
    certPem: certificate.toString("pem"),
    keyPem: `-----BEGIN PRIVATE KEY-----\n${pkcs8.toString("base64").replace(/(.{64})/g, "$1\n").trimEnd()}\n-----END PRIVATE KEY-----\n`,
    certDer: Buffer.from(certificate.rawData),
  };
}

/**
 * The line go-plugin reads from the provider's stdout:
 * `1|6|unix|<socket>|grpc|<certificate>`, the certificate as base64 DER
 * without `=` padding (go-plugin decodes it with RawStdEncoding); empty when
 * TLS is off.
 *
 * @example
 * handshakeLine("/tmp/plugin123/provider.sock", der); // "1|6|unix|/tmp/plugin123/provider.sock|grpc|MIIB…"
 */
export function handshakeLine(socketPath: string, certDer: Uint8Array | undefined): string {
  const cert = certDer === undefined ? "" : Buffer.from(certDer).toString("base64").replace(/=+$/, "");
  return `${CORE_PROTOCOL_VERSION}|${PROTOCOL_VERSION}|unix|${socketPath}|grpc|${cert}`;
}

/**
 * A fresh private folder for the socket, removed when the process exits.
 * The name is short: a unix socket's path is limited to about 100 bytes.
 */
export function makeSocketDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tfcr-"));
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export type LogLevel = "trace" | "debug" | "info" | "warn" | "error";

/** One hclog JSON line, as Terraform reads a provider's stderr (TF_LOG shows them with the provider's name). */
export function hclogLine(level: LogLevel, message: string, fields: Readonly<Record<string, string | number | boolean>> = {}, now: Date = new Date()): string {
  return `${JSON.stringify({ ...fields, "@level": level, "@message": message, "@timestamp": hclogTimestamp(now) })}\n`;
}

/** hclog's timestamp: local time with microseconds and the offset, as Go's `2006-01-02T15:04:05.000000Z07:00`. */
function hclogTimestamp(now: Date): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  const offset = -now.getTimezoneOffset();
  const zone = offset === 0 ? "Z" : `${offset > 0 ? "+" : "-"}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}.${pad(now.getMilliseconds(), 3)}000${zone}`;
}

/** A logger writing hclog lines to a stream (stderr); write errors are dropped, as a lost log line must not end a purchase. */
export interface Logger {
  log(level: LogLevel, message: string, fields?: Readonly<Record<string, string | number | boolean>>): void;
}

/** A {@link Logger} on `stream` (stderr unless told). */
export function hclogLogger(stream: NodeJS.WritableStream = process.stderr): Logger {
  return {
    log(level, message, fields) {
      try {
        stream.write(hclogLine(level, message, fields));
      } catch {
        // A closed stderr: the line is lost, the work goes on.
      }
    },
  };
}

/**
 * Sends `console.*` to the logger: stdout after the handshake line is
 * discarded by go-plugin, and anything on stderr that is not an hclog line
 * is shown as a bare provider message.
 */
export function routeConsole(logger: Logger): void {
  const to = (level: LogLevel) => (...args: unknown[]) => logger.log(level, format(...args));
  console.log = to("info");
  console.info = to("info");
  console.warn = to("warn");
  console.error = to("error");
  console.debug = to("debug");
  console.trace = to("trace");
}
