/**
 * The key and chain in the other forms deployments load: PKCS#8 PEM, one
 * combined PEM (HAProxy), and a password-protected PKCS#12 bundle (Windows,
 * Java, Azure).
 */
import { createCipheriv, createHash, createHmac, createPrivateKey, pbkdf2Sync, X509Certificate, type KeyObject } from "node:crypto";
import * as forge from "node-forge";
import { certificateBlocks } from "./blocks.js";

/**
 * The private key as PKCS#8 PEM (`BEGIN PRIVATE KEY`), whatever form it came
 * in: PKCS#1 (`BEGIN RSA PRIVATE KEY`), SEC1 (`BEGIN EC PRIVATE KEY`) or
 * PKCS#8. Empty in, empty out (a custom-CSR order has no key).
 *
 * @example
 * ```ts
 * toPkcs8Pem("-----BEGIN RSA PRIVATE KEY-----\n..."); // "-----BEGIN PRIVATE KEY-----\n..."
 * ```
 */
export function toPkcs8Pem(keyPem: string): string {
  if (keyPem.trim() === "") return "";
  return readPrivateKey(keyPem).export({ type: "pkcs8", format: "pem" }).toString();
}

/** The key as node:crypto reads it; a failure names OpenSSL's reason only, never the key text. */
function readPrivateKey(keyPem: string): KeyObject {
  try {
    return createPrivateKey(keyPem);
  } catch (e) {
    throw new Error(`privateKeyPem is not a private key node:crypto can read (${(e as Error).message})`);
  }
}

/**
 * Key then full chain in one PEM, the file HAProxy's `crt` takes. Empty
 * when there is no key (custom CSR): a bundle without its key is not what
 * HAProxy needs, and an empty value says so plainly.
 *
 * @example
 * ```ts
 * combinedPem(keyPem, fullChainPem); // "-----BEGIN PRIVATE KEY-----...-----BEGIN CERTIFICATE-----..."
 * ```
 */
export function combinedPem(keyPem: string, fullChainPem: string): string {
  if (keyPem.trim() === "") return "";
  return `${keyPem.trim()}\n${fullChainPem.trim()}\n`;
}

/**
 * Leaf then intermediates, what web servers load: the Certificate's
 * `certificatePem` followed by its `chainPem`. Both are stored as PEM
 * blocks joined by newlines with a trailing newline (see `joinPem`), so the
 * result is byte for byte the `fullChainPem` earlier releases stored.
 *
 * @example
 * ```ts
 * fullChainPem(leafPem, intermediatesPem); // "-----BEGIN CERTIFICATE-----\n…leaf…\n-----BEGIN CERTIFICATE-----\n…"
 * ```
 */
export function fullChainPem(certificatePem: string, chainPem: string): string {
  if (certificatePem === "" || chainPem === "" || certificatePem.endsWith("\n")) return certificatePem + chainPem;
  return `${certificatePem}\n${chainPem}`;
}

/** Labels of the values derived from the key: one per use, so no two share bytes. */
const LABEL = {
  password: "pulumi-certreseller pfx password v1",
  pbkdf2Salt: "pulumi-certreseller pfx pbkdf2 salt v1",
  iv: "pulumi-certreseller pfx aes-256-cbc iv v1",
  macSalt: "pulumi-certreseller pfx mac salt v1",
} as const;

/** The key as PKCS#8 DER, the one form every derivation below reads. */
function pkcs8Der(privateKeyPem: string): Buffer {
  return readPrivateKey(privateKeyPem).export({ type: "pkcs8", format: "der" });
}

const hmacOf = (keyDer: Buffer, data: string) => createHmac("sha256", keyDer).update(data, "utf8").digest();

/**
 * The PFX password used when the program gives none: 32 base64url
 * characters (192 bits) of HMAC-SHA256 keyed with the private key (PKCS#8
 * DER). The same key always gives the same password, so the bundle is stable
 * from run to run without being stored; computing it requires the very key
 * it protects. Empty without a key.
 *
 * @example
 * ```ts
 * derivePfxPassword(privateKeyPem); // "q3V0…" (32 characters, safe on command lines)
 * ```
 */
export function derivePfxPassword(privateKeyPem: string): string {
  if (privateKeyPem.trim() === "") return "";
  return hmacOf(pkcs8Der(privateKeyPem), LABEL.password).toString("base64url").slice(0, 32);
}

/**
 * The password a bundle of this key is built with: `given` when the program
 * gave one, else {@link derivePfxPassword}; empty without a key (custom-CSR
 * order: no bundle).
 *
 * @example
 * ```ts
 * pfxPasswordFor(privateKeyPem, undefined) === derivePfxPassword(privateKeyPem);
 * ```
 */
export function pfxPasswordFor(privateKeyPem: string, given: string | undefined): string {
  if (privateKeyPem.trim() === "") return "";
  return given || derivePfxPassword(privateKeyPem);
}

const { asn1, pki } = forge;
const OID = {
  data: pki.oids.data!,
  certBag: pki.oids.certBag!,
  x509Certificate: pki.oids.x509Certificate!,
  shroudedKeyBag: pki.oids.pkcs8ShroudedKeyBag!,
  localKeyId: pki.oids.localKeyId!,
  friendlyName: pki.oids.friendlyName!,
  sha256: pki.oids.sha256!,
  pbes2: "1.2.840.113549.1.5.13",
  pbkdf2: "1.2.840.113549.1.5.12",
  hmacWithSHA256: "1.2.840.113549.2.9",
  aes256Cbc: "2.16.840.1.101.3.4.1.42",
};
/** PKCS#12 MAC iterations; OpenSSL 3's own default for `pkcs12 -export`. */
const MAC_ITERATIONS = 2048;
/** PBKDF2 iterations of the key's encryption; OpenSSL 3's default too. */
const PBKDF2_ITERATIONS = 2048;

const seq = (items: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items);
const set = (items: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, items);
const oid = (o: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(o).getBytes());
const octets = (bytes: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, bytes);
const explicit0 = (inner: forge.asn1.Asn1) => asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [inner]);
const binary = (b: Buffer) => b.toString("binary");
const integer = (n: number) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(n).getBytes());
const nullValue = () => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, "");

/** ContentInfo of type `data` wrapping a SafeContents. */
function dataContent(safeBags: forge.asn1.Asn1[]): forge.asn1.Asn1 {
  return seq([oid(OID.data), explicit0(octets(asn1.toDer(seq(safeBags)).getBytes()))]);
}

/**
 * PBES2 EncryptedPrivateKeyInfo (RFC 8018): PBKDF2-HMAC-SHA256 (2048
 * iterations, 32-byte key) and AES-256-CBC over the PKCS#8 DER, laid out as
 * OpenSSL 3 writes it. Built here rather than by `KeyObject.export({ cipher })`,
 * which draws a random salt and IV: these come from the caller, so the same
 * key and password give the same bytes.
 */
function encryptedPrivateKeyInfo(keyDer: Buffer, password: string, salt: Buffer, iv: Buffer): forge.asn1.Asn1 {
  const key = pbkdf2Sync(password, salt, PBKDF2_ITERATIONS, 32, "sha256");
  const cipher = createCipheriv("aes-256-cbc", key, iv);
  const encrypted = Buffer.concat([cipher.update(keyDer), cipher.final()]);
  const pbkdf2Params = seq([octets(binary(salt)), integer(PBKDF2_ITERATIONS), seq([oid(OID.hmacWithSHA256), nullValue()])]);
  const pbes2Params = seq([seq([oid(OID.pbkdf2), pbkdf2Params]), seq([oid(OID.aes256Cbc), octets(binary(iv))])]);
  return seq([seq([oid(OID.pbes2), pbes2Params]), octets(binary(encrypted))]);
}

/**
 * A PKCS#12 bundle (base64) holding the private key (shrouded: PBES2,
 * PBKDF2-HMAC-SHA256, AES-256-CBC), the leaf and the intermediates, with an
 * HMAC-SHA256 integrity MAC: the algorithms OpenSSL 3 opens without
 * `-legacy`, and Windows 10+/Java 8u301+ import.
 *
 * Deterministic: the PBKDF2 salt, the IV and the MAC salt are HMAC-SHA256
 * values keyed with the private key (PKCS#8 DER) over a label per use and
 * the password, so the same key, chain, password and friendly name give the
 * same bytes on every run (nothing needs storing to keep it stable), and
 * another password gives other salts. They are secret-dependent but not
 * secret-revealing: HMAC under the key, like the derived password.
 *
 * node-forge's `toPkcs12Asn1` reads keys and certificates as RSA only, so
 * the key is encrypted with node:crypto (any key type) and node-forge
 * supplies the ASN.1 encoding and the RFC 7292 MAC key derivation.
 *
 * @example
 * ```ts
 * const password = derivePfxPassword(privateKeyPem);
 * const pfx = toPkcs12Base64({ privateKeyPem, fullChainPem, password, friendlyName: "example.com" });
 * // openssl pkcs12 -in site.pfx -passin pass:... -nokeys
 * ```
 */
export function toPkcs12Base64(input: { privateKeyPem: string; fullChainPem: string; password: string; friendlyName?: string }): string {
  if (input.privateKeyPem.trim() === "") return "";
  const certs = certificateBlocks(input.fullChainPem).map((pem) => new X509Certificate(pem).raw);
  const leaf = certs[0];
  if (!leaf) throw new Error("PKCS#12: the chain holds no certificate");
  const keyDer = pkcs8Der(input.privateKeyPem);
  // Each derived value also covers the password: a new password, new salts.
  const derived = (label: string) => hmacOf(keyDer, `${label}\0${input.password}`).subarray(0, 16);
  // The leaf's SHA-1 pairs key and certificate, as OpenSSL and Windows expect.
  const localKeyId = set([octets(binary(createHash("sha1").update(leaf).digest()))]);
  const attrs = [seq([oid(OID.localKeyId), localKeyId])];
  if (input.friendlyName) {
    attrs.push(seq([oid(OID.friendlyName), set([asn1.create(asn1.Class.UNIVERSAL, asn1.Type.BMPSTRING, false, input.friendlyName)])]));
  }
  const certBags = certs.map((der, i) =>
    seq([
      oid(OID.certBag),
      explicit0(seq([oid(OID.x509Certificate), explicit0(octets(binary(der)))])),
      ...(i === 0 ? [set(attrs)] : []),
    ]),
  );
  const encryptedKey = encryptedPrivateKeyInfo(keyDer, input.password, derived(LABEL.pbkdf2Salt), derived(LABEL.iv));
  const keyBag = seq([oid(OID.shroudedKeyBag), explicit0(encryptedKey), set(attrs)]);
  const authSafe = seq([dataContent(certBags), dataContent([keyBag])]);
  const authSafeDer = asn1.toDer(authSafe).getBytes();

  const salt = binary(derived(LABEL.macSalt));
  // PKCS#12 KDF (RFC 7292 B.2), purpose 3 = MAC key, SHA-256 sized.
  const macKey = forge.pkcs12.generateKey(input.password, forge.util.createBuffer(salt), 3, MAC_ITERATIONS, 32, forge.md.sha256.create());
  const hmac = forge.hmac.create();
  hmac.start(forge.md.sha256.create(), macKey.getBytes());
  hmac.update(authSafeDer);
  const macData = seq([seq([seq([oid(OID.sha256), nullValue()]), octets(hmac.digest().getBytes())]), octets(salt), integer(MAC_ITERATIONS)]);
  const pfx = seq([integer(3), seq([oid(OID.data), explicit0(octets(authSafeDer))]), macData]);
  return Buffer.from(asn1.toDer(pfx).getBytes(), "binary").toString("base64");
}

/**
 * The PKCS#12 bundle and its password as the Certificate offers them: the
 * given password, else {@link derivePfxPassword}; both empty without a key
 * (custom-CSR order). Deterministic (see {@link toPkcs12Base64}).
 *
 * @example
 * ```ts
 * const { pfxBase64, pfxPassword } = pfxBundle({ privateKeyPem, fullChainPem, friendlyName: "example.com" });
 * ```
 */
export function pfxBundle(input: { privateKeyPem: string; fullChainPem: string; password?: string; friendlyName?: string }): { pfxBase64: string; pfxPassword: string } {
  const pfxPassword = pfxPasswordFor(input.privateKeyPem, input.password);
  return { pfxBase64: toPkcs12Base64({ ...input, password: pfxPassword }), pfxPassword };
}
