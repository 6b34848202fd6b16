import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * AES-256-GCM sealing for the secrets the sandbox must keep (API secrets,
 * generated private keys), so that a data dir on disk never holds them in
 * plaintext. The key lives beside the state, which is what a sandbox can offer.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer = randomBytes(32)) {
    if (key.length !== 32) throw new RangeError(`secret box key must be 32 bytes, got ${key.length}`);
    this.#key = key;
  }

  get key(): Buffer {
    return Buffer.from(this.#key);
  }

  seal(plaintext: string): string {
    if (plaintext === "") return "";
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return `v1.${iv.toString("base64")}.${cipher.getAuthTag().toString("base64")}.${body.toString("base64")}`;
  }

  open(sealed: string): string {
    if (sealed === "") return "";
    const [version, iv, tag, body] = sealed.split(".");
    if (version !== "v1" || iv === undefined || tag === undefined || body === undefined) {
      throw new Error("sealed value is not in the v1 format");
    }
    const decipher = createDecipheriv("aes-256-gcm", this.#key, Buffer.from(iv, "base64"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
  }
}
