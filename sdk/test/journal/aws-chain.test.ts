// The S3 journal finds its credentials through the AWS SDK's own default chain, not from keys it is handed: a
// shared credentials file with AWS_PROFILE, ECS container credentials, EC2 instance metadata and a web-identity
// token exchanged at STS. MinIO checks every signature, so a journal write that gets through used the credentials
// the chain found; each test's environment holds no other credentials, so a chain source that was not used fails it.
// Container, instance-metadata and STS endpoints are local HTTP servers handing out MinIO session credentials.
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cachedBinary, MINIO, MINIO_ROOT, startMinio, type RunningStore } from "../../../scripts/journal-stores/index.js";
import { skipWithout } from "../../../tests/support/ci.js";
import { openBucketStore, PurchaseJournal, resetStoreClientsForTests } from "../../src/journal/index.js";

// Provided (built or found cached) by the sdk project's global setup before any file runs.
const missing = fs.existsSync(cachedBinary(MINIO)) ? undefined : `MinIO is not at ${cachedBinary(MINIO)} (sdk/test/journal/global-setup.ts builds it with Go)`;

interface SessionCredentials {
  AccessKeyId: string;
  SecretAccessKey: string;
  SessionToken: string;
  Expiration: string;
}

describe.skipIf(skipWithout(missing))("the S3 journal's credentials through the AWS SDK's default chain, against MinIO", () => {
  let minio: RunningStore;
  let dir: string;
  let session: SessionCredentials;
  const servers: http.Server[] = [];
  const saved = { ...process.env };

  beforeAll(async () => {
    minio = await startMinio((line) => console.error(`[minio] ${line}`), ["chain"]);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "aws-chain-"));
    // Temporary credentials with a session token, as container, instance-metadata and STS sources hand out.
    const sts = new STSClient({ endpoint: minio.endpoint, region: "us-east-1", credentials: MINIO_ROOT });
    const answer = await sts.send(new AssumeRoleCommand({ RoleArn: "arn:aws:iam::000000000000:role/journal", RoleSessionName: "journal", DurationSeconds: 3600 }));
    sts.destroy();
    const c = answer.Credentials!;
    session = { AccessKeyId: c.AccessKeyId!, SecretAccessKey: c.SecretAccessKey!, SessionToken: c.SessionToken!, Expiration: c.Expiration!.toISOString() };
  }, 20 * 60_000);
  afterAll(async () => {
    await minio?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  let run = 0;
  beforeEach(() => {
    run++;
    // Nothing but what a test sets: no keys, no profile, empty config files, no instance metadata.
    for (const name of Object.keys(process.env)) if (/^AWS_/.test(name)) delete process.env[name];
    process.env.AWS_CONFIG_FILE = path.join(dir, `config-${run}`);
    process.env.AWS_SHARED_CREDENTIALS_FILE = path.join(dir, `credentials-${run}`);
    process.env.AWS_EC2_METADATA_DISABLED = "true";
    process.env.AWS_REGION = "us-east-1";
    resetStoreClientsForTests();
  });
  afterEach(async () => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
    await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve())))));
    resetStoreClientsForTests();
  });

  /** A journal on MinIO whose store is given the process's environment (no keys in it): the chain must find them. */
  const journal = (): PurchaseJournal => new PurchaseJournal(openBucketStore(`s3://chain/run-${run}?endpoint=${encodeURIComponent(minio.endpoint)}`, {}, process.env));
  const writeAndRead = async (): Promise<void> => {
    const j = journal();
    await j.recordIntent({ key: "k", domain: "example.com", productCode: "p", names: ["example.com"] });
    expect(await j.read("k")).toMatchObject({ key: "k", domain: "example.com" });
  };
  const refusal = async (): Promise<string> => {
    const error = (await journal()
      .recordIntent({ key: "k", domain: "d", productCode: "p", names: [] })
      .then(
        () => undefined,
        (e: unknown) => e,
      )) as Error | undefined;
    expect(error).toBeInstanceOf(Error);
    return error!.message;
  };

  /** A loopback HTTP server; `handle` answers each request (its body read first). */
  async function serve(handle: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void): Promise<{ url: string; requests: string[] }> {
    const requests: string[] = [];
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        requests.push(`${req.method} ${req.url}`);
        handle(req, body, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
  }

  it("with no source at all, the write fails saying no credentials were found (the control for every test below)", async () => {
    expect(await refusal()).toMatch(/could not write the purchase journal s3:\/\/chain\/run-\d+\/[0-9a-f]{32}\.json: no AWS credentials found .*AWS_PROFILE/);
  });

  it("a shared credentials file with AWS_PROFILE", async () => {
    fs.writeFileSync(
      process.env.AWS_SHARED_CREDENTIALS_FILE!,
      `[default]\naws_access_key_id = ${MINIO_ROOT.accessKeyId}\naws_secret_access_key = not-the-secret-123\n\n` +
        `[journal-ci]\naws_access_key_id = ${MINIO_ROOT.accessKeyId}\naws_secret_access_key = ${MINIO_ROOT.secretAccessKey}\n`,
    );
    process.env.AWS_PROFILE = "journal-ci";
    await writeAndRead();
    // The default profile's wrong secret is refused by MinIO: the profile named is what signed above.
    delete process.env.AWS_PROFILE;
    resetStoreClientsForTests();
    const message = await refusal();
    expect(message).toMatch(/HTTP 403 SignatureDoesNotMatch/);
    expect(message).not.toContain("not-the-secret-123");
  });

  it("the profile's region from the shared config file, as the AWS CLI reads it", async () => {
    fs.writeFileSync(process.env.AWS_CONFIG_FILE!, `[profile journal-ci]\nregion = eu-central-1\n`);
    fs.writeFileSync(process.env.AWS_SHARED_CREDENTIALS_FILE!, `[journal-ci]\naws_access_key_id = ${MINIO_ROOT.accessKeyId}\naws_secret_access_key = ${MINIO_ROOT.secretAccessKey}\n`);
    process.env.AWS_PROFILE = "journal-ci";
    delete process.env.AWS_REGION;
    // MinIO takes any region in the signature; the client's configured region shows what the profile gave.
    const store = openBucketStore(`s3://chain/run-${run}?endpoint=${encodeURIComponent(minio.endpoint)}`, {}, process.env) as unknown as { client(): { config: { region(): Promise<string> } } };
    expect(await store.client().config.region()).toBe("eu-central-1");
  });

  it("container credentials from AWS_CONTAINER_CREDENTIALS_FULL_URI with its authorization token", async () => {
    const endpoint = await serve((req, _body, res) => {
      if (req.headers.authorization !== "container-token" || req.url !== "/v2/credentials/journal") return void res.writeHead(403).end();
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ AccessKeyId: session.AccessKeyId, SecretAccessKey: session.SecretAccessKey, Token: session.SessionToken, Expiration: session.Expiration }));
    });
    process.env.AWS_CONTAINER_CREDENTIALS_FULL_URI = `${endpoint.url}/v2/credentials/journal`;
    process.env.AWS_CONTAINER_AUTHORIZATION_TOKEN = "container-token";
    await writeAndRead();
    expect(endpoint.requests).toContain("GET /v2/credentials/journal");
  });

  it("instance metadata (IMDSv2) from AWS_EC2_METADATA_SERVICE_ENDPOINT", async () => {
    const endpoint = await serve((req, _body, res) => {
      if (req.method === "PUT" && req.url === "/latest/api/token") return void res.writeHead(200).end("imds-session-token");
      if (req.headers["x-aws-ec2-metadata-token"] !== "imds-session-token") return void res.writeHead(401).end();
      if (req.url === "/latest/meta-data/iam/security-credentials/") return void res.writeHead(200).end("journal-role");
      if (req.url === "/latest/meta-data/iam/security-credentials/journal-role") {
        return void res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({ Code: "Success", Type: "AWS-HMAC", AccessKeyId: session.AccessKeyId, SecretAccessKey: session.SecretAccessKey, Token: session.SessionToken, Expiration: session.Expiration, LastUpdated: new Date().toISOString() }),
        );
      }
      res.writeHead(404).end();
    });
    delete process.env.AWS_EC2_METADATA_DISABLED;
    process.env.AWS_EC2_METADATA_SERVICE_ENDPOINT = endpoint.url;
    await writeAndRead();
    expect(endpoint.requests).toContain("PUT /latest/api/token");
    expect(endpoint.requests).toContain("GET /latest/meta-data/iam/security-credentials/journal-role");
  });

  it("a web-identity token (IRSA, GitHub OIDC) exchanged at STS (AWS_ENDPOINT_URL_STS) with AWS_ROLE_ARN", async () => {
    const tokenFile = path.join(dir, `token-${run}`);
    fs.writeFileSync(tokenFile, "web-identity-token-from-the-platform");
    const sts = await serve((_req, body, res) => {
      const form = new URLSearchParams(body);
      if (form.get("Action") !== "AssumeRoleWithWebIdentity" || form.get("WebIdentityToken") !== "web-identity-token-from-the-platform" || form.get("RoleArn") !== "arn:aws:iam::123456789012:role/journal") {
        return void res.writeHead(403, { "content-type": "text/xml" }).end(`<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>refused</Message></Error></ErrorResponse>`);
      }
      res.writeHead(200, { "content-type": "text/xml" }).end(
        `<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleWithWebIdentityResult>` +
          `<Credentials><AccessKeyId>${session.AccessKeyId}</AccessKeyId><SecretAccessKey>${session.SecretAccessKey}</SecretAccessKey>` +
          `<SessionToken>${session.SessionToken}</SessionToken><Expiration>${session.Expiration}</Expiration></Credentials>` +
          `<AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/journal/ci</Arn><AssumedRoleId>AROA:ci</AssumedRoleId></AssumedRoleUser>` +
          `</AssumeRoleWithWebIdentityResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></AssumeRoleWithWebIdentityResponse>`,
      );
    });
    process.env.AWS_WEB_IDENTITY_TOKEN_FILE = tokenFile;
    process.env.AWS_ROLE_ARN = "arn:aws:iam::123456789012:role/journal";
    process.env.AWS_ROLE_SESSION_NAME = "ci";
    process.env.AWS_ENDPOINT_URL_STS = sts.url;
    await writeAndRead();
    expect(sts.requests).toEqual(["POST /"]);
  });
});
