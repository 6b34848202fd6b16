/**
 * The key and chain in the other forms deployments load: PKCS#8 PEM, one
 * combined PEM (HAProxy), and a password-protected PKCS#12 bundle (Windows,
 * Java, Azure).
 */
import { createHash, createPrivateKey, randomBytes, X509Certificate } from "node:crypto";
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
  try {
    return createPrivateKey(keyPem).export({ type: "pkcs8", format: "pem" }).toString();
  } catch (e) {
    // OpenSSL's reason only; the key text itself never goes into a message.
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

/** A strong random PFX password: 32 characters, 192 bits, safe on command lines and in config files. */
export function generatePfxPassword(): string {
  return randomBytes(24).toString("base64url");
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
};
/** PKCS#12 MAC iterations; OpenSSL 3's own default for `pkcs12 -export`. */
const MAC_ITERATIONS = 2048;

const seq = (items: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items);
const set = (items: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, items);
const oid = (o: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(o).getBytes());
const octets = (bytes: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, bytes);
const explicit0 = (inner: forge.asn1.Asn1) => asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [inner]);
const binary = (b: Buffer) => b.toString("binary");

/** ContentInfo of type `data` wrapping a SafeContents. */
function dataContent(safeBags: forge.asn1.Asn1[]): forge.asn1.Asn1 {
  return seq([oid(OID.data), explicit0(octets(asn1.toDer(seq(safeBags)).getBytes()))]);
}

/**
 * A PKCS#12 bundle (base64) holding the private key (shrouded: PBES2,
 * PBKDF2-HMAC-SHA256, AES-256-CBC), the leaf and the intermediates, with an
 * HMAC-SHA256 integrity MAC: the algorithms OpenSSL 3 opens without
 * `-legacy`, and Windows 10+/Java 8u301+ import.
 *
 * node-forge's `toPkcs12Asn1` reads keys and certificates as RSA only, so
 * the key is encrypted by node:crypto (any key type) and node-forge supplies
 * the ASN.1 encoding and the RFC 7292 MAC key derivation.
 *
 * @example
 * ```ts
 * const pfx = toPkcs12Base64({ privateKeyPem, fullChainPem, password: generatePfxPassword(), friendlyName: "example.com" });
 * // openssl pkcs12 -in site.pfx -passin pass:... -nokeys
 * ```
 */
export function toPkcs12Base64(input: { privateKeyPem: string; fullChainPem: string; password: string; friendlyName?: string }): string {
  if (input.privateKeyPem.trim() === "") return "";
  const certs = certificateBlocks(input.fullChainPem).map((pem) => new X509Certificate(pem).raw);
  const leaf = certs[0];
  if (!leaf) throw new Error("PKCS#12: the chain holds no certificate");
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
  const encryptedKey = createPrivateKey(input.privateKeyPem).export({
    type: "pkcs8",
    format: "der",
    cipher: "aes-256-cbc",
    passphrase: input.password,
  });
  const keyBag = seq([oid(OID.shroudedKeyBag), explicit0(asn1.fromDer(binary(encryptedKey))), set(attrs)]);
  const authSafe = seq([dataContent(certBags), dataContent([keyBag])]);
  const authSafeDer = asn1.toDer(authSafe).getBytes();

  const salt = forge.random.getBytesSync(16);
  // PKCS#12 KDF (RFC 7292 B.2), purpose 3 = MAC key, SHA-256 sized.
  const macKey = forge.pkcs12.generateKey(input.password, forge.util.createBuffer(salt), 3, MAC_ITERATIONS, 32, forge.md.sha256.create());
  const hmac = forge.hmac.create();
  hmac.start(forge.md.sha256.create(), macKey.getBytes());
  hmac.update(authSafeDer);
  const macData = seq([
    seq([seq([oid(OID.sha256), asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, "")]), octets(hmac.digest().getBytes())]),
    octets(salt),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(MAC_ITERATIONS).getBytes()),
  ]);
  const pfx = seq([
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(3).getBytes()),
    seq([oid(OID.data), explicit0(octets(authSafeDer))]),
    macData,
  ]);
  return Buffer.from(asn1.toDer(pfx).getBytes(), "binary").toString("base64");
}

