// A TLS handshake that fails is a configuration error of `baseUrl`, not an
// outage: `https://` to a port that answers plain HTTP, or a server whose
// certificate this Node does not trust. Real servers on loopback; the client
// as the provider builds it. The handshake comes before undici writes a byte
// of the request, so the call provably never left (`mayHaveReachedServer`
// false) and is not retried.
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PartnerApiError, PartnerClient } from "../../src/client/index.js";
import { describeTlsFailure } from "../../src/client/transport.js";
import { settingAtFault } from "../../src/provider/product-catalogue.js";
import { opensslSelfSigned } from "../../../tests/support/openssl.js";

const KEY = "ak_tlstlstlstlstlstlstlstls:" + "t".repeat(64);

/** Every request a server's handler saw, as `METHOD path`. */
type Seen = string[];

async function listen(server: http.Server | https.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

async function failure(promise: Promise<unknown>): Promise<PartnerApiError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PartnerApiError);
  return error as PartnerApiError;
}

describe("the client's TLS failures", () => {
  const plainSeen: Seen = [];
  const tlsSeen: Seen = [];
  let plain: http.Server;
  let selfSigned: https.Server;
  let plainPort = 0;
  let tlsPort = 0;
  const clients: PartnerClient[] = [];
  const client = (baseUrl: string) => {
    const c = new PartnerClient({ baseUrl, apiKey: KEY, retry: { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 20, maxTotalMs: 5_000 } });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    const record = (seen: Seen) => (req: http.IncomingMessage, res: http.ServerResponse) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      req.on("end", () => res.writeHead(404).end());
    };
    plain = http.createServer(record(plainSeen));
    plainPort = await listen(plain);
    const { keyPem, certificatePem } = opensslSelfSigned("127.0.0.1");
    selfSigned = https.createServer({ key: keyPem, cert: certificatePem }, record(tlsSeen));
    tlsPort = await listen(selfSigned);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    plainSeen.length = 0;
    tlsSeen.length = 0;
  });
  afterAll(async () => {
    await new Promise((resolve) => plain?.close(resolve));
    await new Promise((resolve) => selfSigned?.close(resolve));
  });

  it("https:// to a plain-HTTP port: kind tls, says the endpoint answered plain HTTP, nothing of the call sent, no retry", async () => {
    const error = await failure(client(`https://127.0.0.1:${plainPort}`).getUserData());
    expect(error).toMatchObject({ kind: "tls", operation: "GetUserData", mayHaveReachedServer: false, attempts: 1 });
    expect(error.message).toMatch(/^GetUserData: TLS handshake failed \((ERR_SSL_WRONG_VERSION_NUMBER|EPROTO)\): the endpoint answered plain HTTP, not TLS: .*\(https:\/\/127\.0\.0\.1:\d+\)$/);
    // The only request the server's handler saw is the probe: no POST, so neither the call nor the key.
    expect(plainSeen).toEqual(["HEAD /"]);
  });

  it("CreateOrder over it is refused before sending (not MAY have been charged), and not retried", async () => {
    const error = await failure(client(`https://127.0.0.1:${plainPort}`).createOrder({ productCode: "p", domain: "example.com" }));
    expect(error).toMatchObject({ kind: "tls", operation: "CreateOrder", mayHaveReachedServer: false, attempts: 1 });
    expect(plainSeen.filter((r) => r.startsWith("POST"))).toEqual([]);
  });

  it("a self-signed server certificate: kind tls, names the code and what to do, nothing sent", async () => {
    const error = await failure(client(`https://127.0.0.1:${tlsPort}`).getUserData());
    expect(error).toMatchObject({ kind: "tls", mayHaveReachedServer: false, attempts: 1 });
    expect(error.message).toMatch(/TLS handshake failed \(DEPTH_ZERO_SELF_SIGNED_CERT\): the server's certificate does not chain to a CA this Node\.js trusts \(a private CA's certificate goes in NODE_EXTRA_CA_CERTS\)/);
    expect(tlsSeen).toEqual([]);
    expect(error.message).not.toContain(KEY);
  });

  it("plain http:// to a TLS port is still a network failure that may have reached the server (nothing proves otherwise)", async () => {
    const error = await failure(client(`http://127.0.0.1:${tlsPort}`).createOrder({ productCode: "p", domain: "example.com" }));
    expect(error.kind).not.toBe("tls");
    expect(error.mayHaveReachedServer).toBe(true);
  });

  it("the preview's reading: a tls failure names certreseller:baseUrl (a configuration error, not an outage)", async () => {
    const error = await failure(client(`https://127.0.0.1:${plainPort}`).getUserData());
    const fault = settingAtFault(error, `https://127.0.0.1:${plainPort}`);
    expect(fault?.setting).toBe("baseUrl");
    expect(fault?.reason).toMatch(/^the base URL https:\/\/127\.0\.0\.1:\d+ failed the TLS handshake \(.*answered plain HTTP.*\); set certreseller:baseUrl \(or CERTRESELLER_BASE_URL\)/);
  });
});

describe("describeTlsFailure: each certificate refusal in words", () => {
  const url = new URL("https://partner.example.net/");
  const coded = (code: string) => Object.assign(new Error("(peer text, never shown)"), { code });

  it.each([
    ["CERT_HAS_EXPIRED", /\(CERT_HAS_EXPIRED\): the server's certificate is outside its validity period$/],
    ["ERR_TLS_CERT_ALTNAME_INVALID", /\(ERR_TLS_CERT_ALTNAME_INVALID\): the server's certificate does not name partner\.example\.net$/],
    ["UNABLE_TO_VERIFY_LEAF_SIGNATURE", /\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\): the server's certificate does not chain to a CA this Node\.js trusts/],
    ["SELF_SIGNED_CERT_IN_CHAIN", /\(SELF_SIGNED_CERT_IN_CHAIN\): the server's certificate does not chain to a CA this Node\.js trusts/],
  ])("%s", async (code, says) => {
    const message = await describeTlsFailure(coded(code), url, 100);
    expect(message).toMatch(says);
    expect(message).not.toContain("peer text");
  });
});
