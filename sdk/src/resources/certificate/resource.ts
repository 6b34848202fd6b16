import * as pulumi from "@pulumi/pulumi";
import { providerText } from "../../program/provider-text.js";
import { warnIfApiKeyNotSecret } from "../../program/warnings.js";
import { followerImportAdvice, refuseImportOption } from "../../program/resource-options.js";
import type { Order } from "../order/resource.js";
import { quietRegistration } from "../../program/quiet-registration.js";
import { resourceUrnInput } from "../../program/resource-urn.js";
import { compute, programInputs } from "./presentation.js";
import type { CertificateArgs, CertificateProperties } from "./properties.generated.js";
import { entries, isInput, isOutput, providerInputs, type MembersOfType, type OutputNames, type Same } from "../../schema/property.js";
import { CERTIFICATE_PROPERTIES } from "./declaration.js";
import { resolveTimeout } from "./timeouts.js";

export type { CertificateArgs } from "./properties.generated.js";

/** The outputs the class computes in the program when read (getters below); the rest are the engine's. */
const COMPUTED_OUTPUTS = ["fullChainPem", "privateKeyPkcs8Pem", "combinedPem", "serialNumber", "fingerprintSha256", "notBefore", "renewsAt", "pfxPassword", "pfxBase64"] as const;
type ComputedOutputs = (typeof COMPUTED_OUTPUTS)[number];

/** The declared inputs the provider takes, and the outputs it stores (registered undefined): the rest the class computes. */
const PROVIDER_INPUTS = providerInputs(CERTIFICATE_PROPERTIES).map(([name]) => name);
const STORED_OUTPUTS = entries(CERTIFICATE_PROPERTIES)
  .filter(([name, p]) => !isInput(p) && isOutput(p) && !(COMPUTED_OUTPUTS as readonly string[]).includes(name))
  .map(([name]) => name);

// The class's stored outputs, as declared (declaration merging: the engine sets them).
export interface Certificate extends Omit<CertificateProperties, ComputedOutputs> {}

/** Stored outputs that carry key material; the engine keeps them encrypted. */
const SECRET_OUTPUTS = ["privateKeyPem"];

/**
 * An issued certificate: waits until the order's certificate is issued, then
 * downloads and verifies it (the leaf matches the API's fingerprint, the key
 * matches the leaf, the chain links up).
 *
 * While waiting it reads the order status no more often than the service
 * allows (one read per order per cooldown, honouring `retry_after`) and prints
 * which domains are still unverified and when it checks next. Put the
 * validation records it needs in `dependsOn`.
 *
 * Besides PEM it offers the forms deployments load: `pfxBase64` (PKCS#12,
 * AES-256, with `pfxPassword`), `privateKeyPkcs8Pem` and `combinedPem`
 * (key + full chain, for HAProxy). Every output holding the key or a
 * password is secret; all of them are empty strings when the order used a
 * custom CSR (the service holds no key then).
 *
 * What is stored in state is what cannot be recomputed: the leaf, the
 * intermediates, the key (encrypted), the CSR, `notAfter`, `domains` and the
 * identifiers. The rest is computed in the program from those, with the same
 * names, types and secrecy as when it was stored: `fullChainPem`,
 * `serialNumber`, `fingerprintSha256`, `notBefore`, `renewsAt`,
 * `privateKeyPkcs8Pem`, `combinedPem`, and the PKCS#12 pair `pfxBase64` /
 * `pfxPassword`, which is built only when the program reads it and is
 * deterministic (the same key, chain and password give the same bytes on
 * every run; see `pfxBase64`). The engine rewrites the whole checkpoint after
 * every step, so each stored byte costs time in large stacks.
 *
 * `customTimeouts.create` sets how long `up` waits (see `timeoutMinutes`).
 * The `import` resource option is refused: a Certificate holds no purchase,
 * just declare it.
 *
 * Given `{ order }`, a reissue of the order's next installment (the Order's
 * renewal window, with another installment left) updates the Certificate in
 * place: `up` waits for the new certificate, verifies it, and only then
 * replaces the outputs; the resource id stays the first certificate's id
 * (read `certId`). When the Order is replaced (a new purchase at the end of
 * the term), the Certificate is replaced create-before-delete. Either way
 * the old material stays in state until the new certificate is issued.
 *
 * @example
 * ```ts
 * const cert = new certs.Certificate("site", { orderNo: order.orderNo, timeoutMinutes: 30 }, { dependsOn: records });
 * export const fullChain = cert.fullChainPem;
 * export const key = cert.privateKeyPem; // secret
 * export const pfx = cert.pfxBase64; // secret, opened with cert.pfxPassword (secret); built only because it is read
 * ```
 */
export class Certificate extends pulumi.CustomResource {
  /** Lets policy packs (`isType`, `validateResourceOfType`) recognise this class. */
  static readonly __pulumiType = "pulumi-nodejs:dynamic/certreseller:Certificate";

  readonly #name: string;
  readonly #pfxPasswordArg: pulumi.Input<string> | undefined;
  readonly #termEndsAt: pulumi.Input<string | undefined> | undefined;
  readonly #renewBeforeDays: pulumi.Input<number | undefined> | undefined;
  readonly #renewBeforePercentage: pulumi.Input<number | undefined> | undefined;
  /** The lazily computed outputs, each made once per instance (see `#memo`). */
  readonly #memos = new Map<string, pulumi.Output<unknown>>();

  constructor(name: string, args: CertificateArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImportOption("Certificate", name, opts, followerImportAdvice("Certificate"));
    warnIfApiKeyNotSecret();
    if (args.pfxPassword === "") throw new Error(`Certificate "${name}": pfxPassword must be a non-empty string (omit it to have one derived from the key)`);
    const timeout = resolveTimeout(name, args.timeoutMinutes, opts?.customTimeouts);
    const order = args.order;
    // The Order's id is its order number and stays known while the Order is updated in place (see Validation).
    const orderNo = order ? (order.id as pulumi.Output<string>) : args.orderNo;
    if (orderNo === undefined) throw new Error(`Certificate "${name}": give order (an Order) or orderNo`);
    const urn = resourceUrnInput(name, Certificate.__pulumiType, opts?.parent);
    const renewBeforeDays = args.renewBeforeDays ?? order?.renewBeforeDays;
    const renewBeforePercentage = args.renewBeforePercentage ?? order?.renewBeforePercentage;
    const props = {
      // Every declared input the provider takes, as given; then what the class fills in.
      ...Object.fromEntries(PROVIDER_INPUTS.map((key) => [key, (args as Record<string, unknown>)[key]])),
      orderNo,
      requestId: args.requestId ?? order?.requestId,
      renewBeforeDays,
      renewBeforePercentage,
      ...programInputs(urn),
      timeoutMinutes: timeout.timeoutMinutes,
      timeoutOrigin: timeout.timeoutOrigin,
      // Output-only members must be present (undefined) to be registered as
      // outputs. Only what cannot be recomputed is stored: the computed
      // outputs are getters below (an earlier release's stored copies are
      // ignored, and dropped by the provider's next update).
      ...Object.fromEntries(STORED_OUTPUTS.map((key) => [key, undefined])),
    };
    // New outputs the engine cannot infer as secret (no secret input of that
    // name), so they are listed here; the engine re-wraps them after every create/update.
    const secretOpts = pulumi.mergeOptions(opts, { additionalSecretOutputs: SECRET_OUTPUTS });
    using _registration = quietRegistration();
    super(Certificate.__pulumiType, name, { ...props, __provider: providerText("certificate") }, secretOpts);
    this.#name = name;
    this.#pfxPasswordArg = args.pfxPassword;
    this.#termEndsAt = order ? order.termEndsAt : undefined;
    this.#renewBeforeDays = renewBeforeDays;
    this.#renewBeforePercentage = renewBeforePercentage;
    // The provider does not store them (it needs them only for the expiry warning): report the program's.
    const reported = this as { -readonly [K in "renewBeforeDays" | "renewBeforePercentage" | "csrPem"]: Certificate[K] };
    reported.renewBeforeDays = pulumi.output(renewBeforeDays);
    reported.renewBeforePercentage = pulumi.output(renewBeforePercentage);
    // Derived in the program rather than stored: the state already holds the
    // key and chain, and each stored copy adds to every checkpoint.
    // pulumi.secret keeps the key-bearing ones secret even where the
    // engine's secretness of privateKeyPem is not yet known (preview).
    reported.csrPem = this.csrPem.apply((csr) => csr ?? "");
  }

  /**
   * Leaf followed by intermediates: what web servers load. Computed in the
   * program (`certificatePem` then `chainPem`), not stored; the same bytes
   * earlier releases stored.
   */
  get fullChainPem(): pulumi.Output<string> {
    return this.#memo("fullChainPem", () => pulumi.all([this.certificatePem, this.chainPem]).apply(([leaf, chain]) => compute.fullChainPem(leaf, chain)));
  }

  /**
   * SECRET. The private key as PKCS#8 PEM (`BEGIN PRIVATE KEY`) whatever form
   * the service sent; empty for a custom-CSR order. Computed in the program
   * from `privateKeyPem` when first read (a key conversion per certificate
   * that a program which never reads it does not pay), not stored in state.
   */
  get privateKeyPkcs8Pem(): pulumi.Output<string> {
    return this.#memo("privateKeyPkcs8Pem", () => pulumi.secret(this.privateKeyPem.apply(compute.privateKeyPkcs8Pem)));
  }

  /**
   * SECRET. Private key then full chain in one PEM (HAProxy `crt`); empty for
   * a custom-CSR order. Computed in the program when first read, not stored in state.
   */
  get combinedPem(): pulumi.Output<string> {
    return this.#memo("combinedPem", () =>
      pulumi.secret(pulumi.all([this.privateKeyPem, this.fullChainPem]).apply(([key, chain]) => compute.combinedPem(key, chain))),
    );
  }

  /** Uppercase hex without leading zeros, as `openssl x509 -serial` prints it (less its whole-byte padding). Read from `certificatePem` in the program. */
  get serialNumber(): pulumi.Output<string> {
    return this.#fact("serialNumber");
  }

  /** SHA-256 of the leaf (DER), uppercase hex with colons. Read from `certificatePem` in the program. */
  get fingerprintSha256(): pulumi.Output<string> {
    return this.#fact("fingerprintSha256");
  }

  /** ISO 8601, from the certificate itself (read from `certificatePem` in the program). */
  get notBefore(): pulumi.Output<string> {
    return this.#fact("notBefore");
  }

  /**
   * When the next reissue (or, for the order's last certificate, the renewal
   * purchase) is due (ISO), from `notBefore`/`notAfter`, the term's end and
   * the Order's renewal settings; undefined without renewal settings.
   * Computed in the program, not stored.
   */
  get renewsAt(): pulumi.Output<string | undefined> {
    return this.#memo("renewsAt", () =>
      pulumi
        .all([this.notBefore, this.notAfter, this.#renewBeforeDays, this.#renewBeforePercentage, this.#termEndsAt])
        .apply(([notBefore, notAfter, days, percentage, termEnd]) =>
          compute.renewsAt(notBefore, notAfter, { renewBeforeDays: days ?? undefined, renewBeforePercentage: percentage ?? undefined, termEndsAt: termEnd ?? undefined }),
        ),
    );
  }

  /**
   * SECRET. The password of `pfxBase64`: the `pfxPassword` argument, else
   * one derived from the private key (32 characters: the first 32 of
   * base64url(HMAC-SHA256 keyed with the key's PKCS#8 DER)), the same on
   * every run. Empty for a custom-CSR order. Computed in the program, not stored.
   */
  get pfxPassword(): pulumi.Output<string> {
    return this.#memo("pfxPassword", () =>
      pulumi.secret(
        pulumi.all([this.privateKeyPem, this.#pfxPasswordArg]).apply(([key, given]) => {
          try {
            return compute.pfxPassword(key, given);
          } catch (error) {
            throw new Error(`Certificate "${this.#name}": ${(error as Error).message}`);
          }
        }),
      ),
    );
  }

  /**
   * SECRET. PKCS#12 bundle (key, leaf, intermediates; PBES2 with
   * PBKDF2-HMAC-SHA256 and AES-256-CBC, HMAC-SHA256 MAC), base64; OpenSSL 3
   * opens it without `-legacy`. Empty for a custom-CSR order.
   *
   * Built in the program the first time it is read (a program that never
   * reads it pays nothing), not stored. Deterministic: its salts and IV are
   * derived from the key and the password, so an unchanged certificate gives
   * the same bytes on every run and resources consuming it see no change; a
   * new certificate or a new `pfxPassword` gives a new bundle.
   */
  get pfxBase64(): pulumi.Output<string> {
    return this.#memo("pfxBase64", () =>
      pulumi.secret(
        pulumi
          .all([this.privateKeyPem, this.fullChainPem, this.domains, this.pfxPassword])
          .apply(([key, chain, domains, password]) => compute.pfxBase64(key, chain, domains, password)),
      ),
    );
  }

  #memo<T>(key: string, make: () => pulumi.Output<T>): pulumi.Output<T> {
    let out = this.#memos.get(key) as pulumi.Output<T> | undefined;
    if (!out) this.#memos.set(key, (out = make()));
    return out;
  }

  /** One fact of the leaf; the leaf is parsed once per instance, and only when a fact is read. */
  #fact(key: "serialNumber" | "fingerprintSha256" | "notBefore"): pulumi.Output<string> {
    const facts = this.#memo("facts", () => this.certificatePem.apply(compute.facts));
    // Undefined only where no certificate is known (a mock without one), as a missing output was.
    return this.#memo(key, () => facts.apply((f) => f?.[key] as string));
  }
}

// The class's outputs (stored and computed) are the declared outputs (`id` and `urn` are every resource's).
const outputsMatch: Same<Exclude<MembersOfType<Certificate, pulumi.Output<unknown>>, "id" | "urn">, OutputNames<typeof CERTIFICATE_PROPERTIES>> = true;
void outputsMatch;
