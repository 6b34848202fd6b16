import { beforeAll, afterAll, describe, expect, it } from "vitest";
import { CsrError, IssueRequestError, KEY_SPECS, loadOrCreateCa, type CertificateAuthority, type IssueRequest, type KeySpec } from "../../src/ca/index.js";
import { opensslCsr, tamperCsr } from "./support/csr.js";
import { describeCertificate, openssl, scratchDir } from "../../../tests/support/openssl.js";

const DAY = 86_400_000;
let ca: CertificateAuthority;
let dir: Awaited<ReturnType<typeof scratchDir>>;
let rootFile: string;
let intermediateFile: string;

beforeAll(async () => {
  ca = await loadOrCreateCa();
  dir = await scratchDir();
  rootFile = await dir.write("root.pem", ca.rootPem);
  intermediateFile = await dir.write("intermediate.pem", ca.intermediatePem);
});
afterAll(() => dir.dispose());

async function verifyChain(leafPem: string): Promise<string> {
  const leafFile = await dir.write(`leaf-${Math.random().toString(36).slice(2)}.pem`, leafPem);
  const { stdout, stderr } = await openssl(["verify", "-CAfile", rootFile, "-untrusted", intermediateFile, leafFile]);
  return `${stdout}${stderr}`.trim().replace(`${leafFile}: `, "");
}

async function publicKeyOf(kind: "x509" | "req" | "pkey", pem: string): Promise<string> {
  const args = kind === "x509" ? ["x509", "-noout", "-pubkey"] : kind === "req" ? ["req", "-noout", "-pubkey"] : ["pkey", "-pubout"];
  const { stdout, code, stderr } = await openssl(args, pem);
  if (code !== 0) throw new Error(stderr);
  return stdout;
}

const KEY_TEXT: Record<KeySpec, RegExp> = {
  "rsa-2048": /Public Key Algorithm: rsaEncryption[\s\S]*Public-Key: \(2048 bit\)/,
  "rsa-3072": /Public Key Algorithm: rsaEncryption[\s\S]*Public-Key: \(3072 bit\)/,
  "rsa-4096": /Public Key Algorithm: rsaEncryption[\s\S]*Public-Key: \(4096 bit\)/,
  "p-256": /Public Key Algorithm: id-ecPublicKey[\s\S]*NIST CURVE: P-256/,
  "p-384": /Public Key Algorithm: id-ecPublicKey[\s\S]*NIST CURVE: P-384/,
};

function request(overrides: Partial<IssueRequest> = {}): IssueRequest {
  const notBefore = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
  return { names: ["shop.example.com", "www.shop.example.com"], keySpec: "p-256", hashAlgorithm: "sha256", notBefore, notAfter: new Date(notBefore.getTime() + 90 * DAY), ...overrides };
}

describe("issue with a key the CA generates", () => {
  it.each(KEY_SPECS.map((spec, i) => [spec, i % 2 === 0 ? "sha256" : "sha384"] as const))(
    "%s / %s: openssl verifies the chain; key, names, serial, fingerprint and validity are as requested",
    async (keySpec, hashAlgorithm) => {
      const req = request({ keySpec, hashAlgorithm });
      const cert = await ca.issue(req);

      expect(await verifyChain(cert.chainPem.slice(0, cert.chainPem.indexOf("-----END CERTIFICATE-----") + 26))).toBe("OK");
      expect(cert.chainPem).toBe(cert.leafPem + cert.intermediatePem);
      expect(cert.intermediatePem).toBe(ca.intermediatePem);

      const facts = await describeCertificate(cert.leafPem);
      expect(facts.text).toMatch(KEY_TEXT[keySpec]);
      expect(facts.text).toContain(`Signature Algorithm: ecdsa-with-${hashAlgorithm.toUpperCase()}`);
      expect(facts.subject).toBe("CN=shop.example.com");
      expect(facts.sans).toEqual(["DNS:shop.example.com", "DNS:www.shop.example.com"]);
      expect(facts.serial).toBe(cert.serialNumber);
      expect(cert.serialNumber).toMatch(/^[0-9A-F]{32}$/);
      expect(facts.fingerprint).toBe(cert.fingerprintSha256);
      expect(facts.notBefore).toEqual(req.notBefore);
      expect(facts.notAfter).toEqual(req.notAfter);
      expect(cert.notBefore).toEqual(req.notBefore);
      expect(cert.notAfter).toEqual(req.notAfter);
      expect(facts.text).toMatch(/Basic Constraints: critical\s+CA:FALSE/);
      expect(facts.text).toMatch(
        keySpec.startsWith("rsa") ? /Key Usage: critical\s+Digital Signature, Key Encipherment\n/ : /Key Usage: critical\s+Digital Signature\n/,
      );
      expect(facts.text).toMatch(/Extended Key Usage:\s*\n\s+TLS Web Server Authentication\n/);
      expect(facts.text).toContain("Subject Key Identifier");
      expect(facts.text).toContain("Authority Key Identifier");

      // The returned key and CSR belong to the certificate, and the CSR is well signed.
      expect(cert.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
      const certKey = await publicKeyOf("x509", cert.leafPem);
      expect(await publicKeyOf("pkey", cert.privateKeyPem)).toBe(certKey);
      expect(await publicKeyOf("req", cert.csrPem)).toBe(certKey);
      const csrCheck = await openssl(["req", "-noout", "-verify"], cert.csrPem);
      expect(`${csrCheck.stdout}${csrCheck.stderr}`).toContain("verify OK");
    },
  );

  it("gives each certificate its own serial and key", async () => {
    const [a, b] = await Promise.all([ca.issue(request()), ca.issue(request())]);
    expect(a!.serialNumber).not.toBe(b!.serialNumber);
    expect(a!.privateKeyPem).not.toBe(b!.privateKeyPem);
  });
});

describe("issue for a customer CSR", () => {
  it.each(KEY_SPECS)("%s (CSR made by openssl req): certifies the CSR's key, returns no private key", async (keySpec) => {
    const { csrPem, keyPem } = await opensslCsr(keySpec, "/CN=api.example.org/O=Acme Ltd", "DNS:api.example.org");
    // keySpec in the request says p-256; the CSR's key wins.
    const cert = await ca.issue(request({ names: ["api.example.org"], keySpec: "p-256", csrPem }));

    expect(await verifyChain(cert.leafPem)).toBe("OK");
    expect(cert.privateKeyPem).toBe("");
    expect(cert.csrPem).toBe(csrPem);
    expect(await publicKeyOf("x509", cert.leafPem)).toBe(await publicKeyOf("pkey", keyPem));
    const facts = await describeCertificate(cert.leafPem);
    expect(facts.text).toMatch(KEY_TEXT[keySpec]);
    expect(facts.sans).toEqual(["DNS:api.example.org"]);
  });

  it("refuses a CSR whose signature does not verify, before signing anything", async () => {
    const { csrPem } = await opensslCsr("p-256", "/CN=tamper.example.com");
    const tampered = tamperCsr(csrPem, "tamper.example.com");
    await expect(ca.issue(request({ names: ["tamper.example.com"], csrPem: tampered }))).rejects.toThrow(CsrError);
    await expect(ca.issue(request({ names: ["tamper.example.com"], csrPem: tampered }))).rejects.toThrow(/signature does not verify/);
  });

  it("refuses a CSR with a key that is neither RSA nor ECDSA", async () => {
    const { csrPem } = await opensslCsr("ed25519", "/CN=ed.example.com");
    await expect(ca.issue(request({ names: ["ed.example.com"], csrPem }))).rejects.toThrow(/neither RSA nor ECDSA/);
  });
});

describe("names and validity", () => {
  it("puts wildcards and IPv4/IPv6 addresses in the SAN (iPAddress entries), the first name as CN", async () => {
    const cert = await ca.issue(request({ names: ["*.Example.com", "example.com", "203.0.113.7", "2001:db8:0:0::7", "::ffff:198.51.100.1"] }));
    expect(await verifyChain(cert.leafPem)).toBe("OK");
    const facts = await describeCertificate(cert.leafPem);
    expect(facts.subject).toBe("CN=*.example.com");
    expect(facts.sans).toEqual([
      "DNS:*.example.com",
      "DNS:example.com",
      "IP Address:203.0.113.7",
      "IP Address:2001:DB8:0:0:0:0:0:7",
      "IP Address:0:0:0:0:0:FFFF:C633:6401",
    ]);
  });

  it("leaves a first name longer than 64 characters out of the subject and marks the SAN critical", async () => {
    const long = `${"a".repeat(60)}.example.com`;
    const cert = await ca.issue(request({ names: [long, "short.example.com"] }));
    expect(await verifyChain(cert.leafPem)).toBe("OK");
    const facts = await describeCertificate(cert.leafPem);
    expect(facts.subject).toBe("");
    expect(facts.text).toMatch(/Subject Alternative Name: critical\n/);
    expect(facts.sans).toEqual([`DNS:${long}`, "DNS:short.example.com"]);
  });

  it("encodes IDNs as punycode", async () => {
    const cert = await ca.issue(request({ names: ["bücher.example"] }));
    expect((await describeCertificate(cert.leafPem)).sans).toEqual(["DNS:xn--bcher-kva.example"]);
  });

  it("keeps validity exactly as requested, to the second, including dates past 2049 (GeneralizedTime)", async () => {
    const notBefore = new Date("2049-12-31T23:59:58.750Z");
    const notAfter = new Date("2052-02-29T12:00:01.999Z");
    const cert = await ca.issue(request({ notBefore, notAfter }));
    const facts = await describeCertificate(cert.leafPem);
    expect(facts.notBefore.toISOString()).toBe("2049-12-31T23:59:58.000Z");
    expect(facts.notAfter.toISOString()).toBe("2052-02-29T12:00:01.000Z");
    expect(cert.notBefore.toISOString()).toBe("2049-12-31T23:59:58.000Z");
    expect(cert.notAfter.toISOString()).toBe("2052-02-29T12:00:01.000Z");
    // Not valid yet, so openssl must say exactly that (the chain itself is fine).
    expect(await verifyChain(cert.leafPem)).toContain("certificate is not yet valid");
  });

  it("adds O and C to the subject for OV/EV", async () => {
    const cert = await ca.issue(request({ organization: "Acme, Ltd.", country: "de" }));
    expect((await describeCertificate(cert.leafPem)).subject).toBe("CN=shop.example.com,O=Acme\\, Ltd.,C=DE");
  });
});

describe("bad requests name the field and the rule", () => {
  const cases: [string, Partial<IssueRequest>, string, RegExp][] = [
    ["no names", { names: [] }, "names", /at least one name/],
    ["a bad label", { names: ["ok.example.com", "bad_label.example.com"] }, "names[1]", /invalid label "bad_label"/],
    ["a wildcard not leftmost", { names: ["www.*.example.com"] }, "names[0]", /invalid label/],
    ["a duplicate", { names: ["a.example.com", "A.example.com"] }, "names[1]", /listed twice/],
    ["an unknown key spec", { keySpec: "rsa-1024" as KeySpec }, "keySpec", /must be one of rsa-2048/],
    ["an unknown hash", { hashAlgorithm: "md5" as "sha256" }, "hashAlgorithm", /sha256 or sha384/],
    ["notAfter before notBefore", { notBefore: new Date("2030-01-02"), notAfter: new Date("2030-01-01") }, "notAfter", /after notBefore/],
    ["an invalid date", { notBefore: new Date("nope") }, "notBefore", /valid Date/],
    ["a bad country", { country: "Germany" }, "country", /alpha-2/],
  ];
  it.each(cases)("%s", async (_, overrides, field, rule) => {
    const error = await ca.issue(request(overrides)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(IssueRequestError);
    expect((error as IssueRequestError).field).toBe(field);
    expect((error as IssueRequestError).message).toMatch(rule);
  });
});
