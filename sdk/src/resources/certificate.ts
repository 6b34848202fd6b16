import * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../provider/lazy-provider.js";
import { warnIfApiKeyNotSecret } from "../provider/program-warnings.js";
import { followerImportAdvice, refuseImportOption } from "../provider/resource-options.js";
import { combinedPem, toPkcs8Pem } from "../pem/formats.js";
import { windowOpensAt } from "../rules/lifetime.js";
import { resolveTimeout } from "./certificate/timeouts.js";
import type { Order } from "./order.js";

/** Arguments of {@link Certificate}. */
export interface CertificateArgs {
  /**
   * The Order to follow (instead of `orderNo`): its number, its request id
   * (a reissue of the next installment updates this Certificate in place)
   * and its renewal settings (for `renewsAt` and the expiry warning).
   */
  order?: Order;
  /** The order whose certificate to wait for and download (e.g. `order.orderNo`); required without `order`. */
  orderNo?: pulumi.Input<string>;
  /**
   * The Order's sign request id (`order.requestId`; `order` passes it): when
   * it changes, the Order submitted the next installment, and `up` waits for
   * it and downloads it in place, keeping the old certificate until then.
   */
  requestId?: pulumi.Input<string | undefined>;
  /** The Order's `renewBeforeDays` (`order` passes it): `renewsAt`, and no expiry warning. */
  renewBeforeDays?: pulumi.Input<number | undefined>;
  /** The Order's `renewBeforePercentage` (`order` passes it). */
  renewBeforePercentage?: pulumi.Input<number | undefined>;
  /** For orders split into installments: which certificate (1-based). Default: the earliest issued. */
  installmentNo?: pulumi.Input<number>;
  /** A specific certificate of the order by its UUID; wins over `installmentNo`. */
  certId?: pulumi.Input<string>;
  /**
   * How long `up` waits for issuance, in minutes (default 60). The status is
   * read at most once per the service's cooldown (180 s), so short timeouts
   * allow only a few checks.
   *
   * The resource option `customTimeouts: { create: "30m" }` sets the same wait
   * (`update` too, when `create` is absent); giving both with different values
   * fails at construction.
   */
  timeoutMinutes?: pulumi.Input<number>;
  /**
   * Password of `pfxBase64`. Pass it as a secret (`config.requireSecret(...)`);
   * when omitted a strong one is generated and returned as the secret output
   * `pfxPassword`. Changing it rebuilds the bundle in place.
   */
  pfxPassword?: pulumi.Input<string>;
}

/** Outputs that carry key material or a password; the engine keeps them encrypted. */
const SECRET_OUTPUTS = ["privateKeyPem", "pfxBase64", "pfxPassword"];

const certificateProvider = lazyProvider("certificate");

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
 * `customTimeouts.create` sets how long `up` waits (see `timeoutMinutes`).
 * The `import` resource option is refused: a Certificate holds no purchase,
 * just declare it.
 *
 * `privateKeyPem` is a secret output (encrypted in state). Given `{ order }`,
 * a reissue of the order's next installment (the Order's renewal window, with
 * another installment left) updates the Certificate in place: `up` waits for
 * the new certificate, verifies it, and only then replaces the outputs; the
 * resource id stays the first certificate's id (read `certId`). When the
 * Order is replaced (a new purchase at the end of the term), the Certificate
 * is replaced create-before-delete. Either way the old material stays in
 * state until the new certificate is issued.
 *
 * @example
 * ```ts
 * const cert = new certs.Certificate("site", { orderNo: order.orderNo, timeoutMinutes: 30 }, { dependsOn: records });
 * export const fullChain = cert.fullChainPem;
 * export const key = cert.privateKeyPem; // secret
 * export const pfx = cert.pfxBase64; // secret, opened with cert.pfxPassword (secret)
 * ```
 */
export class Certificate extends pulumi.dynamic.Resource {
  /** Lets policy packs (`isType`, `validateResourceOfType`) recognise this class. */
  static readonly __pulumiType = "pulumi-nodejs:dynamic/certreseller:Certificate";

  declare readonly orderNo: pulumi.Output<string>;
  /** The certificate's UUID at the service (also the resource id). */
  declare readonly certId: pulumi.Output<string>;
  declare readonly installmentNo: pulumi.Output<number>;
  declare readonly timeoutMinutes: pulumi.Output<number>;
  /** The leaf certificate (PEM). */
  declare readonly certificatePem: pulumi.Output<string>;
  /** The intermediate certificates (PEM), leaf excluded. */
  declare readonly chainPem: pulumi.Output<string>;
  /** Leaf followed by intermediates: what web servers load. */
  declare readonly fullChainPem: pulumi.Output<string>;
  /** SECRET. The private key (PEM); empty when the order used a custom CSR. */
  declare readonly privateKeyPem: pulumi.Output<string>;
  declare readonly csrPem: pulumi.Output<string>;
  /** Uppercase hex, as `openssl x509 -serial` prints it. */
  declare readonly serialNumber: pulumi.Output<string>;
  /** SHA-256 of the leaf (DER), uppercase hex with colons. */
  declare readonly fingerprintSha256: pulumi.Output<string>;
  /** ISO 8601, from the certificate itself. */
  declare readonly notBefore: pulumi.Output<string>;
  declare readonly notAfter: pulumi.Output<string>;
  /** The names the certificate covers. */
  declare readonly domains: pulumi.Output<string[]>;
  /** The Order's request id this certificate was issued for (absent without `order`/`requestId`). */
  declare readonly requestId: pulumi.Output<string | undefined>;
  /** How many certificates the order holds. */
  declare readonly installmentsCount: pulumi.Output<number | undefined>;
  /**
   * When the next reissue (or, for the order's last certificate, the renewal
   * purchase) is due (ISO), from `notBefore`/`notAfter`, the term's end and
   * the Order's renewal settings; undefined without renewal settings.
   * Computed in the program, not stored.
   */
  readonly renewsAt: pulumi.Output<string | undefined>;
  /** SECRET. PKCS#12 bundle (key, leaf, intermediates; AES-256), base64; empty for a custom-CSR order. */
  declare readonly pfxBase64: pulumi.Output<string>;
  /** SECRET. The password of `pfxBase64`: the `pfxPassword` input, or generated (32 characters); empty for a custom-CSR order. */
  declare readonly pfxPassword: pulumi.Output<string>;
  /**
   * SECRET. The private key as PKCS#8 PEM (`BEGIN PRIVATE KEY`) whatever form
   * the service sent; empty for a custom-CSR order. Computed in the program
   * from `privateKeyPem`, not stored in state.
   */
  readonly privateKeyPkcs8Pem: pulumi.Output<string>;
  /**
   * SECRET. Private key then full chain in one PEM (HAProxy `crt`); empty for
   * a custom-CSR order. Computed in the program, not stored in state.
   */
  readonly combinedPem: pulumi.Output<string>;

  constructor(name: string, args: CertificateArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImportOption("Certificate", name, opts, followerImportAdvice("Certificate"));
    warnIfApiKeyNotSecret();
    const timeout = resolveTimeout(name, args.timeoutMinutes, opts?.customTimeouts);
    const order = args.order;
    // The Order's id is its order number and stays known while the Order is updated in place (see Validation).
    const orderNo = order ? (order.id as pulumi.Output<string>) : args.orderNo;
    if (orderNo === undefined) throw new Error(`Certificate "${name}": give order (an Order) or orderNo`);
    const urn = pulumi.createUrn(name, Certificate.__pulumiType, opts?.parent);
    const renewBeforeDays = args.renewBeforeDays ?? order?.renewBeforeDays;
    const renewBeforePercentage = args.renewBeforePercentage ?? order?.renewBeforePercentage;
    const props = {
      orderNo,
      requestId: args.requestId ?? order?.requestId,
      renewBeforeDays,
      renewBeforePercentage,
      // A plain promise of the URN (see Order): preview warnings name the resource.
      resourceUrn: new Promise<string>((resolve) => urn.apply(resolve)),
      installmentsCount: undefined,
      installmentNo: args.installmentNo,
      certId: args.certId,
      timeoutMinutes: timeout.timeoutMinutes,
      timeoutOrigin: timeout.timeoutOrigin,
      // Secret whatever the program passed: an input is stored as given, and a
      // plain-string password would sit in state in clear text.
      pfxPassword: args.pfxPassword === undefined ? undefined : pulumi.secret(args.pfxPassword),
      // Output-only members must be present (undefined) to be registered as outputs.
      certificatePem: undefined,
      chainPem: undefined,
      fullChainPem: undefined,
      privateKeyPem: undefined,
      csrPem: undefined,
      serialNumber: undefined,
      fingerprintSha256: undefined,
      notBefore: undefined,
      notAfter: undefined,
      domains: undefined,
      pfxBase64: undefined,
    };
    // New outputs the engine cannot infer as secret (no secret input of that
    // name), so they are listed here; the engine re-wraps them after every create/update.
    const secretOpts = pulumi.mergeOptions(opts, { additionalSecretOutputs: SECRET_OUTPUTS });
    super(certificateProvider, name, props, secretOpts, "certreseller", "Certificate");
    // Derived in the program rather than stored: the state already holds the
    // key and chain, and each stored copy of the key adds its ciphertext to
    // every checkpoint. pulumi.secret keeps them secret even where the
    // engine's secretness of privateKeyPem is not yet known (preview).
    this.privateKeyPkcs8Pem = pulumi.secret(this.privateKeyPem.apply((key) => toPkcs8Pem(key ?? "")));
    const termEndsAt = order ? order.termEndsAt : undefined;
    this.renewsAt = pulumi
      .all([this.notBefore, this.notAfter, renewBeforeDays, renewBeforePercentage, termEndsAt])
      .apply(([notBefore, notAfter, days, percentage, termEnd]) => {
        const opens = notAfter ? windowOpensAt({ notBefore, notAfter, termEndsAt: termEnd ?? undefined }, { renewBeforeDays: days ?? undefined, renewBeforePercentage: percentage ?? undefined }) : undefined;
        return opens === undefined ? undefined : new Date(opens).toISOString();
      });
    this.combinedPem = pulumi.secret(pulumi.all([this.privateKeyPem, this.fullChainPem]).apply(([key, chain]) => combinedPem(key ?? "", chain ?? "")));
  }
}
