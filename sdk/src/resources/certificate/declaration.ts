/**
 * The `Certificate` resource as one declaration: its token, description and
 * every property, for the package schema, the argument and output types and
 * the reference page, and the generated `properties.generated.ts` (its
 * arguments, checked inputs and outputs). The class registers every declared
 * input and stored output, and is held to the declared outputs by the
 * compiler (resource.ts).
 *
 * Each input's parse rule, default and change effect are declared here and
 * applied by the shared check and diff: a new `orderNo`, or a given
 * `installmentNo` / `certId` other than the certificate held, replaces
 * (create-before-delete); a new `requestId` (a reissue) and a new
 * `timeoutMinutes` update in place; nothing else is compared. The class
 * also sends `resourceUrn` and `timeoutOrigin` (from `customTimeouts`):
 * internal, not declared (as the Order's `INTERNAL_INPUTS`).
 *
 * Several outputs are derived from the stored ones (`derived`, or
 * `reportedWhen` for the forms a plugin program asks for): the class computes
 * them in the program when read, the plugin answers with them; the schema and
 * the reference say so after their descriptions (`storageNote`).
 */
import { parseDnsServers } from "../../dns/server-address.js";
import { bad, ok } from "../../schema/parse.js";
import * as t from "../../schema/property.js";
import { DEFAULT_PROPAGATION_MINUTES, DEFAULT_TIMEOUT_MINUTES, MAX_PROPAGATION_MINUTES, MAX_TIMEOUT_MINUTES } from "./inputs.js";

/**
 * The derived forms a provider plugin program asks for in `outputFormats`
 * (each output names its form: `reportedWhen`). They are recomputed from the
 * stored certificate and key on every answer, but the engine keeps what the
 * plugin reports in state and rewrites it at every step, so a form nobody
 * reads costs bytes and time; the TypeScript class computes each one only
 * when read, and takes no `outputFormats`.
 */
export const OUTPUT_FORMATS = ["fullChainPem", "privateKeyPkcs8Pem", "combinedPem", "pkcs12"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
/**
 * Unset `outputFormats`: the full chain alone. It is public, cheap (a
 * concatenation, about 1.6 KB of plain text per certificate) and what most
 * deployments load; the key-bearing forms are secrets (encrypted, larger in
 * state) and the PKCS#12 bundle costs a key derivation per answer.
 */
export const DEFAULT_OUTPUT_FORMATS: readonly OutputFormat[] = ["fullChainPem"];

/** Marks an output the plugin reports only when `outputFormats` lists `format`. */
const reportedWhen = (format: OutputFormat) => ({ input: "outputFormats", value: format, byDefault: DEFAULT_OUTPUT_FORMATS.includes(format) }) as const;

/** A number of minutes above 0 and at most `max` (`span` says how long that is). */
const minutes = (max: number, span: string) => (value: unknown, property: string) =>
  typeof value === "number" && Number.isFinite(value) && value > 0 && value <= max
    ? ok(value)
    : bad(property, `${property} must be a number of minutes above 0 and at most ${max} (${span}); got ${JSON.stringify(value)}`);

/** Unset follows the certificate held: only a given value is compared. */
const givenDiffers = (old: unknown, next: unknown) => next === undefined || next === null || old === next;

/** One of the Order's renewal settings, as the Certificate takes and reports it. */
function renewalSetting(name: "renewBeforeDays" | "renewBeforePercentage") {
  return {
    description: `The Order's \`${name}\` (\`order\` passes it): for \`renewsAt\`, and no expiry warning.`,
    outputDescription: "The setting `renewsAt` is computed with: the argument, else (a TypeScript class given an `order`) the Order's.",
    type: t.integer,
    tsType: "number | undefined",
    typeNote: "number (`order` passes it)",
    defaultNote: "—",
    change: "none",
    changeNote: "used for `renewsAt` and the expiry warning",
  } as const;
}

export const CERTIFICATE_PROPERTIES = {
  // `order` is a TypeScript convenience: the class reads the Order's id,
  // request id and renewal settings from it and sends them as `orderNo`,
  // `requestId`, `renewBeforeDays` and `renewBeforePercentage` (and the term's
  // end, for `renewsAt`). An object holding another resource cannot exist in
  // the package schema: `tsOnly`, never an output.
  order: {
    description:
      "The Order to follow (instead of `orderNo`): fills `orderNo` (from its id), `requestId` (a reissue of the next installment updates this " +
      "Certificate in place) and `renewBeforeDays` / `renewBeforePercentage` (for `renewsAt` and the expiry warning).",
    type: t.anyValue,
    typeNote: "an `Order` (instead of `orderNo`)",
    tsType: "Order",
    tsOnly: true,
    output: false,
    // What a change does is what it does to the inputs it fills: another
    // order (another number) replaces, a reissue updates.
    change: "replace",
    changeNote:
      "when it is another order (its number is followed); its `requestId` is followed too (a reissue of the next installment is an **update**: the new certificate is downloaded in place, the old one kept until it is verified), and its renewal settings (no change)",
  },
  // Required: the resource always receives an order number (`order` fills
  // it), and without `order` (every language but TypeScript) the program
  // must give it.
  orderNo: {
    description: "The order whose certificate to wait for and download (e.g. `order.orderNo`).",
    type: t.string,
    defaultNote: "— (required without `order`)",
    required: true,
    filledBy: "order",
    missing: "orderNo is required: the order number (e.g. order.orderNo)",
    change: "replace",
    parse: (value, property) =>
      typeof value === "string" && value.trim() !== "" ? ok(value.trim()) : bad(property, "orderNo is required: the order number (e.g. order.orderNo)"),
  },
  requestId: {
    description:
      "The Order's sign request id (`order.requestId`; `order` passes it): when it changes, the Order submitted the next installment, and `up` waits for it " +
      "and downloads it in place, keeping the old certificate until then. As an output: the Order's request id this certificate was issued for (absent without `order`/`requestId`).",
    type: t.string,
    typeNote: "string (`order.requestId`; `order` passes it)",
    tsType: "string | undefined",
    tsOutputType: "string",
    defaultNote: "—",
    change: "update",
    changeNote: "waits for, downloads and verifies the next installment; unset or empty is no change",
    same: (old, next) => next === undefined || next === null || next === "" || next === old,
  },
  // Sent to the provider for the expiry warning and used by the class for
  // `renewsAt`; the class reports them (computed when read, never stored).
  renewBeforeDays: renewalSetting("renewBeforeDays"),
  renewBeforePercentage: renewalSetting("renewBeforePercentage"),
  installmentNo: {
    alwaysSet: true,
    description:
      "For orders split into installments: which certificate (1-based). As an output: the installment downloaded (after a reissue the next installment's).",
    type: t.integer,
    typeNote: "number (1-based)",
    defaultNote: "the earliest issued certificate",
    change: "replace",
    changeNote: "only when given: unset follows the certificate held",
    parse: (value, property) =>
      typeof value === "number" && Number.isInteger(value) && value >= 1
        ? ok(value)
        : bad(property, `installmentNo must be a whole number from 1 (the first certificate of the order); got ${JSON.stringify(value)}`),
    same: givenDiffers,
  },
  certId: {
    alwaysSet: true,
    description:
      "A specific certificate of the order by its UUID; wins over `installmentNo`. As an output: the certificate's UUID at the service (after a reissue the next installment's; the resource id stays the first certificate's).",
    type: t.string,
    typeNote: "string (UUID); wins over `installmentNo`",
    defaultNote: "—",
    change: "replace",
    changeNote: "only when given: unset follows the certificate held",
    parse: (value, property) =>
      typeof value === "string" && value.trim() !== "" ? ok(value) : bad(property, "certId must be a non-empty string (the certificate's UUID)"),
    same: givenDiffers,
  },
  timeoutMinutes: {
    alwaysSet: true,
    description:
      `How long \`up\` waits for issuance, in minutes (above 0, at most ${MAX_TIMEOUT_MINUTES}). The status is read at most once per the service's cooldown (180 s), ` +
      "so short timeouts allow only a few checks. The resource option `customTimeouts: { create: \"30m\" }` sets the same wait (`update` too, when `create` is absent); " +
      "giving both with different values fails at construction.",
    type: t.number,
    defaultNote: `${DEFAULT_TIMEOUT_MINUTES} (or from \`customTimeouts\`)`,
    change: "update",
    changeNote: "the certificate is kept",
    parse: minutes(MAX_TIMEOUT_MINUTES, "7 days"),
    fallback: () => DEFAULT_TIMEOUT_MINUTES,
    same: (old, next) => (next ?? DEFAULT_TIMEOUT_MINUTES) === old,
  },
  // The propagation check's settings: read by create only, not stored
  // (`output: false`), so changing one changes nothing of a Certificate
  // that exists.
  propagationCheck: {
    description:
      "Before waiting for issuance, when the order's method is `dns` or `cname`: read the validation records (GetRecord) and wait until each is " +
      "visible on every authoritative server of its zone (or on `propagationResolvers`), failing with the missing records and the servers that " +
      "lack them after `propagationTimeoutMinutes`. Only GetRecord and DNS queries: nothing is bought or cancelled, and a failure leaves the " +
      "Order as it is. Unset: on, except against a Partner API on this machine (a loopback base URL, the sandbox) when no DNS server is named " +
      "(`propagationResolvers` or `certreseller:dnsResolvers`).",
    type: t.boolean,
    defaultNote: "on for `dns`/`cname` (off against a loopback base URL unless a DNS server is named)",
    output: false,
    change: "none",
    changeNote: "checked when the Certificate is created",
    parse: (value, property) => (typeof value === "boolean" ? ok(value) : bad(property, `propagationCheck must be true or false; got ${JSON.stringify(value)}`)),
  },
  propagationTimeoutMinutes: {
    description: `How long the propagation check waits for the records, in minutes (above 0, at most ${MAX_PROPAGATION_MINUTES}); the servers are asked again after 2, 4, 8, ... (at most 30) seconds.`,
    type: t.number,
    defaultNote: `${DEFAULT_PROPAGATION_MINUTES}`,
    output: false,
    change: "none",
    changeNote: "checked when the Certificate is created",
    parse: minutes(MAX_PROPAGATION_MINUTES, "a day"),
  },
  propagationResolvers: {
    description:
      "DNS servers (`address:port`; the port defaults to 53) the propagation check asks instead of each zone's authoritative servers: " +
      "for a zone whose servers this machine cannot reach, or to check what a particular resolver sees.",
    type: t.listOf(t.string),
    typeNote: "string[] (`192.0.2.53:53`, `[2001:db8::53]:53`)",
    defaultNote: "the authoritative servers of each record's zone (found through `certreseller:dnsResolvers`, else the system's resolvers)",
    output: false,
    change: "none",
    changeNote: "checked when the Certificate is created",
    // Written back in canonical `address:port` form.
    parse: (value, property) => {
      const parsed = parseDnsServers(value);
      return parsed.reason !== undefined ? bad(property, `propagationResolvers ${parsed.reason}`) : ok(parsed.servers);
    },
  },
  // Plugin programs only (`pluginOnly`): the class computes every form when
  // read. A presentation input: the handlers never see it, and a change
  // re-presents (an update that sends nothing).
  outputFormats: {
    description:
      "The derived forms the provider plugin reports besides the stored PEM, each computed from the stored certificate and key: " +
      "`fullChainPem` (leaf then intermediates), `privateKeyPkcs8Pem`, `combinedPem` (key then full chain), `pkcs12` (`pfxBase64` and its `pfxPassword`). " +
      "A form not listed is not reported, so it costs nothing in state or time; `[]` reports none. TypeScript programs do not take it: " +
      "the class computes every form when it is read.",
    type: t.listOf(t.enumOf("CertificateOutputFormat", OUTPUT_FORMATS, "A derived form of the certificate the provider plugin reports.")),
    defaultNote: `\`${JSON.stringify(DEFAULT_OUTPUT_FORMATS)}\``,
    output: false,
    pluginOnly: true,
    presentation: true,
    change: "none",
    changeNote: "adds or drops the outputs (an update that sends nothing to the service)",
    parse: (value, property) => {
      const listed = Array.isArray(value) ? value : [value];
      const unknown = listed.filter((f) => !(OUTPUT_FORMATS as readonly unknown[]).includes(f));
      if (!Array.isArray(value) || unknown.length > 0)
        return bad(property, `${property} must be a list of ${OUTPUT_FORMATS.map((f) => JSON.stringify(f)).join(", ")}; got ${JSON.stringify(value)}`);
      return ok(OUTPUT_FORMATS.filter((f) => listed.includes(f)));
    },
  },
  // Secret, an input and an output: the given password, else one derived
  // from the key. The class builds the PKCS#12 bundle in the program and never
  // sends it; the plugin's presentation reads it, its handlers never see it.
  pfxPassword: {
    alwaysSet: true,
    description:
      "Password of `pfxBase64` (non-empty). Pass it as a secret; when omitted one is derived from the private key (the first 32 characters of " +
      "base64url(HMAC-SHA256 keyed with the key's PKCS#8 DER)), the same on every run. The TypeScript class uses it in the program only: it is neither " +
      "sent to the provider nor stored. A provider plugin program's value is stored as a secret input and read only to build the bundle. " +
      "As an output: the password given or derived; empty for a custom-CSR order.",
    type: t.string,
    defaultNote: "derived from the private key (32 characters, the same on every run)",
    secret: true,
    presentation: true,
    reportedWhen: reportedWhen("pkcs12"),
    change: "none",
    changeNote: "read only to build `pfxBase64`, never sent to the service; a new password gives a new `pfxBase64`",
  },
  certificatePem: t.output("The leaf certificate (PEM).", t.string, { required: true }),
  chainPem: t.output("The intermediate certificates (PEM), leaf excluded.", t.string, { required: true }),
  fullChainPem: t.output(
    "Leaf followed by intermediates (`certificatePem` then `chainPem`): what web servers load.",
    t.string,
    { required: true, reportedWhen: reportedWhen("fullChainPem") },
  ),
  privateKeyPem: t.output("The private key (PEM), encrypted in state; empty when the order used a custom CSR.", t.string, { required: true, secret: true }),
  privateKeyPkcs8Pem: t.output(
    "The private key as PKCS#8 PEM (`BEGIN PRIVATE KEY`), whatever form the service sent (PKCS#1 RSA, SEC1 EC, PKCS#8); empty for a custom-CSR order. " +
      "Converted from `privateKeyPem`.",
    t.string,
    { required: true, reportedWhen: reportedWhen("privateKeyPkcs8Pem"), secret: true },
  ),
  combinedPem: t.output(
    "Private key then full chain in one PEM (HAProxy's `crt`); empty for a custom-CSR order.",
    t.string,
    { required: true, reportedWhen: reportedWhen("combinedPem"), secret: true },
  ),
  pfxBase64: t.output(
    "PKCS#12 bundle (key, leaf, intermediates; PBES2 with PBKDF2-HMAC-SHA256 and AES-256-CBC, HMAC-SHA256 MAC), base64 — what Azure Key Vault, IIS and Java " +
      "keystores load; OpenSSL 3 opens it without `-legacy`. Empty for a custom-CSR order. Deterministic: the same certificate and password give the " +
      "same bytes on every run.",
    t.string,
    { required: true, reportedWhen: reportedWhen("pkcs12"), secret: true },
  ),
  csrPem: t.output(
    "The CSR of a custom-CSR order (yours, as the service returned it); empty when the service generated the key.",
    t.string,
    { required: true },
  ),
  serialNumber: t.output(
    "Uppercase hex without leading zeros (`openssl x509 -serial` pads to whole bytes), read from the leaf.",
    t.string,
    { required: true, derived: true },
  ),
  fingerprintSha256: t.output("SHA-256 of the DER leaf, uppercase hex with colons.", t.string, { required: true, derived: true }),
  notBefore: t.output("ISO 8601, read from the leaf.", t.string, { required: true, derived: true }),
  notAfter: t.output("ISO 8601, from the certificate (stored).", t.string, { required: true }),
  renewsAt: t.output(
    "ISO 8601: when the next reissue (or, for the order's last certificate, the renewal purchase) is due, from `notBefore`/`notAfter`, the term's end and the " +
      "Order's renewal settings; absent without renewal settings.",
    t.string,
    { derived: true },
  ),
  installmentsCount: t.output(
    "How many certificates the order holds (grows when a later certificate lives a shorter CA/B limit); absent when the service does not say.",
    t.integer,
  ),
  domains: t.output("The names the certificate covers.", t.listOf(t.string), { required: true }),
} as const satisfies t.PropertyTable;

export const CERTIFICATE = t.resource("Certificate", {
  description:
    "An issued certificate: waits until the order's certificate is issued (reading the status no more often than the service allows), then downloads " +
    "and verifies it (the leaf matches the API's fingerprint, the key matches the leaf, the chain links up). Put the validation records in `dependsOn`. " +
    "Besides PEM it offers `pfxBase64` (PKCS#12), `privateKeyPkcs8Pem` and `combinedPem` (provider plugin programs list the ones they use in `outputFormats`); every output holding the key or a password is secret, and empty " +
    "for a custom-CSR order. Given an Order, a reissue of its next installment updates the Certificate in place; a new order replaces it create-before-delete.",
  properties: CERTIFICATE_PROPERTIES,
});
