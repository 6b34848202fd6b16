const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

export interface PemBlock {
  label: string;
  der: Uint8Array;
  /** The block's text, BEGIN to END line. */
  text: string;
}

/** The PEM blocks in a text, in order (base64 bodies decoded). */
export function pemBlocks(text: string): PemBlock[] {
  return Array.from(text.matchAll(BLOCK), (m) => ({
    text: m[0],
    label: m[1]!,
    der: new Uint8Array(Buffer.from(m[2]!.replace(/\s+/g, ""), "base64")),
  }));
}

export function toPem(label: string, der: ArrayBuffer | Uint8Array): string {
  const base64 = Buffer.from(der instanceof Uint8Array ? der : new Uint8Array(der)).toString("base64");
  return `-----BEGIN ${label}-----\n${base64.replace(/.{1,64}/g, "$&\n")}-----END ${label}-----\n`;
}
