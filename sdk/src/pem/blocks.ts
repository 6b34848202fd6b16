/**
 * PEM text handling shared by the certificate material checks.
 *
 * The API hands out chains as concatenated PEM text and sometimes with CRLF
 * line endings or stray whitespace between blocks; splitting on the armour
 * lines (rather than on blank lines) keeps us independent of that.
 */

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** One PEM block with its label (`CERTIFICATE`, `PRIVATE KEY`, ...). */
export interface PemBlock {
  label: string;
  /** The block normalised to LF line endings, without a trailing newline. */
  pem: string;
}

/** Every PEM block in `text`, in order. Text outside the armour is ignored. */
export function pemBlocks(text: string | null | undefined): PemBlock[] {
  if (!text) return [];
  const normalised = text.replace(/\r\n?/g, "\n");
  const out: PemBlock[] = [];
  for (const m of normalised.matchAll(BLOCK)) {
    out.push({ label: m[1]!, pem: m[0].split("\n").map((l) => l.trim()).filter((l) => l !== "").join("\n") });
  }
  return out;
}

/** The `CERTIFICATE` blocks of `text`, each normalised. */
export function certificateBlocks(text: string | null | undefined): string[] {
  return pemBlocks(text)
    .filter((b) => b.label === "CERTIFICATE")
    .map((b) => b.pem);
}

/** Joins PEM blocks the way servers expect a bundle: one block per line group, trailing newline. */
export function joinPem(blocks: readonly string[]): string {
  return blocks.length === 0 ? "" : blocks.join("\n") + "\n";
}
