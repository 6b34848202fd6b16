// go-plugin's handshake with the real command (src/cmd/terraform-provider-certreseller.ts,
// run through tsx): the environment Terraform sets, the one stdout line, mTLS
// that trusts only the certificate in that line and admits only Terraform's
// client certificate, hclog lines on stderr, Shutdown and SIGTERM; and the
// starts it refuses. The provider is a small in-test one (the provider half
// is tested on its own).
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as GrpcJs from "@grpc/grpc-js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { generateServerCertificate, handshakeLine, hclogLine, MAGIC_COOKIE_VALUE, parseProtocolVersions, readHandshakeEnv, type ServerCertificate } from "../../src/terraform/handshake.js";
import { loadTerraformProtos } from "../../src/terraform/server.js";
import { CMD, fakeProviderEntry, grpc, TSX } from "./fake-provider.js";

const SDK = path.join(__dirname, "..", "..");
const BIN = path.join(SDK, "bin", "terraform-provider-certreseller");

/** An entry that runs the command with an in-test provider (the command's own loader is used by the bin). */
const ENTRY = fakeProviderEntry({
  dataSource: true,
  stop: 'async () => { console.log("stop called"); return undefined; }',
  epilogue: 'console.log("started with %d argument(s)", process.argv.length - 2);',
});

let work: string;
let entryFile: string;
let clientCert: ServerCertificate;
const children: ChildProcess[] = [];
const clients: GrpcJs.Client[] = [];

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "tfcr-handshake-"));
  entryFile = path.join(work, "entry.cjs");
  fs.writeFileSync(entryFile, ENTRY);
  // Terraform's own client certificate is made the same way (go-plugin's generateCert).
  clientCert = await generateServerCertificate();
});
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function terraformEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE,
    PLUGIN_PROTOCOL_VERSIONS: "5,6",
    PLUGIN_MIN_PORT: "10000",
    PLUGIN_MAX_PORT: "25000",
    PLUGIN_CLIENT_CERT: clientCert.certPem,
    ...extra,
  };
  for (const [key, value] of Object.entries(extra)) if (value === undefined) delete env[key];
  delete env.TF_DISABLE_PLUGIN_TLS;
  if (extra.TF_DISABLE_PLUGIN_TLS !== undefined) env.TF_DISABLE_PLUGIN_TLS = extra.TF_DISABLE_PLUGIN_TLS;
  return env;
}

interface Started {
  child: ChildProcess;
  line: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the command as Terraform does (no arguments, its working directory) and waits for the handshake line or the exit. */
async function start(args: string[], env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn(process.execPath, args, { cwd: work, env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const line = await new Promise<string>((resolve) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes("\n")) resolve(stdout.slice(0, stdout.indexOf("\n")));
    });
    void exited.then(() => resolve(""));
  });
  return { child, line, stdout: () => stdout, stderr: () => stderr, exited };
}

/** tsx's loader by path (TSX): the child runs in a temp folder, where `tsx` does not resolve by name. */
const viaTsx = (file: string) => ["--import", TSX, file];

function parseLine(line: string) {
  const match = /^1\|6\|unix\|(\/[^|]+)\|grpc\|([A-Za-z0-9+/]*)$/.exec(line);
  if (!match) throw new Error(`not a go-plugin handshake line: ${JSON.stringify(line)}`);
  return { socket: match[1]!, certDer: Buffer.from(match[2]!, "base64"), certField: match[2]! };
}

const derToPem = (der: Buffer) => `-----BEGIN CERTIFICATE-----\n${der.toString("base64").replace(/(.{64})/g, "$1\n").trimEnd()}\n-----END CERTIFICATE-----\n`;

function clientsFor(socket: string, credentials: GrpcJs.ChannelCredentials) {
  const packages = loadTerraformProtos().packages as any;
  const options = { "grpc.ssl_target_name_override": "localhost", "grpc.default_authority": "localhost" };
  const make = (Client: any) => {
    const client = new Client(`unix:${socket}`, credentials, options) as GrpcJs.Client & Record<string, any>;
    clients.push(client);
    return client;
  };
  return { provider: make(packages.tfplugin6.Provider), health: make(packages.grpc.health.v1.Health), controller: make(packages.plugin.GRPCController) };
}

const call = (client: any, method: string, request: unknown = {}) =>
  new Promise<any>((resolve, reject) => client[method](request, { deadline: Date.now() + 10_000 }, (error: unknown, response: unknown) => (error ? reject(error) : resolve(response))));

function expectHclog(stderr: string) {
  const lines = stderr.split("\n").filter((line) => line !== "");
  for (const line of lines) {
    const parsed = JSON.parse(line) as Record<string, unknown>;
    expect(parsed).toMatchObject({ "@level": expect.any(String), "@message": expect.any(String), "@timestamp": expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}(Z|[+-]\d\d:\d\d)$/) });
  }
  return lines.map((line) => JSON.parse(line) as { "@level": string; "@message": string });
}

describe("the handshake as Terraform makes it", () => {
  it("one line, a pinned certificate, mTLS, the calls, then Shutdown ends the process and removes the socket", async () => {
    const started = await start(viaTsx(entryFile), terraformEnv());
    const { socket, certDer, certField } = parseLine(started.line);
    expect(certField).not.toMatch(/=/);
    expect(fs.existsSync(socket)).toBe(true);
    expect(path.dirname(socket).startsWith(os.tmpdir())).toBe(true);
    // The certificate go-plugin pins: self-signed for localhost, P-256, serverAuth and clientAuth.
    const x509 = new (await import("node:crypto")).X509Certificate(certDer);
    expect(x509.subjectAltName).toBe("DNS:localhost");
    expect(x509.ca).toBe(true);
    expect(x509.publicKey.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
    expect(x509.checkIssued(x509)).toBe(true);

    const credentials = grpc.credentials.createSsl(Buffer.from(derToPem(certDer)), Buffer.from(clientCert.keyPem), Buffer.from(clientCert.certPem));
    const { provider, health, controller } = clientsFor(socket, credentials);
    expect((await call(health, "Check", { service: "plugin" })).status).toBe("SERVING");
    const schema = await call(provider, "GetProviderSchema");
    expect(Object.keys(schema.resource_schemas)).toEqual(["certreseller_thing"]);
    expect(JSON.parse(Buffer.from(schema.resource_schemas.certreseller_thing.block.attributes[0].type).toString())).toBe("string");
    const metadata = await call(provider, "GetMetadata");
    expect(metadata.resources).toEqual([{ type_name: "certreseller_thing" }]);
    expect(metadata.data_sources).toEqual([{ type_name: "certreseller_info" }]);
    expect(metadata.server_capabilities.plan_destroy).toBe(true);

    // go-plugin opens the stdio stream and keeps it; Shutdown must not wait for it.
    const packages = loadTerraformProtos().packages as any;
    const stdio = new packages.plugin.GRPCStdio(`unix:${socket}`, credentials, { "grpc.ssl_target_name_override": "localhost" });
    clients.push(stdio);
    const stream = stdio.StreamStdio({});
    const streamEnded = new Promise<void>((resolve) => {
      stream.on("error", () => resolve());
      stream.on("end", () => resolve());
    });
    stream.on("data", () => undefined);
    await new Promise((resolve) => stream.once("metadata", resolve));

    await call(controller, "Shutdown");
    await streamEnded;
    const exit = await started.exited;
    // Gracefully, not by the 2 s fallback that forces a lingering connection closed.
    expect(started.stderr()).not.toContain("closed by force");
    expect(exit).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(path.dirname(socket))).toBe(false);
    // Nothing else on stdout; console output went to stderr as hclog lines.
    expect(started.stdout()).toBe(`${started.line}\n`);
    const logs = expectHclog(started.stderr());
    expect(logs).toContainEqual(expect.objectContaining({ "@level": "info", "@message": "started with 0 argument(s)" }));
    expect(started.stderr()).not.toContain("PRIVATE KEY");
  });

  it("PLUGIN_PROTOCOL_VERSIONS as 6,5 works too; a client without a certificate, or with another one, is refused", async () => {
    const started = await start(viaTsx(entryFile), terraformEnv({ PLUGIN_PROTOCOL_VERSIONS: "6,5" }));
    const { socket, certDer } = parseLine(started.line);
    const root = Buffer.from(derToPem(certDer));
    const anonymous = clientsFor(socket, grpc.credentials.createSsl(root));
    await expect(call(anonymous.health, "Check", { service: "plugin" })).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
    const stranger = await generateServerCertificate();
    const other = clientsFor(socket, grpc.credentials.createSsl(root, Buffer.from(stranger.keyPem), Buffer.from(stranger.certPem)));
    await expect(call(other.health, "Check", { service: "plugin" })).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
    const plaintext = clientsFor(socket, grpc.credentials.createInsecure());
    await expect(call(plaintext.health, "Check", { service: "plugin" })).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
    // And the real client still gets in.
    const terraform = clientsFor(socket, grpc.credentials.createSsl(root, Buffer.from(clientCert.keyPem), Buffer.from(clientCert.certPem)));
    expect((await call(terraform.health, "Check", { service: "" })).status).toBe("SERVING");
    await call(terraform.controller, "Shutdown");
    expect((await started.exited).code).toBe(0);
  });

  it("SIGINT is ignored; SIGTERM stops the provider and exits", async () => {
    const started = await start(viaTsx(entryFile), terraformEnv());
    const { socket, certDer } = parseLine(started.line);
    const { health } = clientsFor(socket, grpc.credentials.createSsl(Buffer.from(derToPem(certDer)), Buffer.from(clientCert.keyPem), Buffer.from(clientCert.certPem)));
    started.child.kill("SIGINT");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await call(health, "Check", { service: "plugin" })).status).toBe("SERVING");
    started.child.kill("SIGTERM");
    expect(await started.exited).toEqual({ code: 0, signal: null });
    expect(expectHclog(started.stderr())).toContainEqual(expect.objectContaining({ "@message": "stop called" }));
  });

  it("TF_DISABLE_PLUGIN_TLS: plaintext, and an empty certificate field", async () => {
    const started = await start(viaTsx(entryFile), terraformEnv({ TF_DISABLE_PLUGIN_TLS: "1", PLUGIN_CLIENT_CERT: undefined }));
    const { socket, certField } = parseLine(started.line);
    expect(certField).toBe("");
    const { health, controller } = clientsFor(socket, grpc.credentials.createInsecure());
    expect((await call(health, "Check", { service: "plugin" })).status).toBe("SERVING");
    await call(controller, "Shutdown");
    expect((await started.exited).code).toBe(0);
  });
});

/** The command as the bin runs it, with the provider half's own createProvider(). */
const cmdArgs = () => ["--import", TSX, "-e", `require(${JSON.stringify(CMD)}).runFromCommandLine()`];

describe("the command with the provider half", () => {
  it("serves provider.ts's schema: GetProviderSchema and GetMetadata agree, every type decodes", async () => {
    const started = await start(cmdArgs(), terraformEnv());
    const { socket, certDer } = parseLine(started.line);
    const { provider, controller } = clientsFor(socket, grpc.credentials.createSsl(Buffer.from(derToPem(certDer)), Buffer.from(clientCert.keyPem), Buffer.from(clientCert.certPem)));
    const schema = await call(provider, "GetProviderSchema");
    expect(schema.diagnostics).toEqual([]);
    const metadata = await call(provider, "GetMetadata");
    expect(metadata.resources.map((r: { type_name: string }) => r.type_name).sort()).toEqual(Object.keys(schema.resource_schemas).sort());
    expect(metadata.data_sources.map((r: { type_name: string }) => r.type_name).sort()).toEqual(Object.keys(schema.data_source_schemas).sort());
    expect(Object.keys(schema.resource_schemas).length).toBeGreaterThan(0);
    for (const block of [schema.provider, ...Object.values(schema.resource_schemas), ...Object.values(schema.data_source_schemas)] as { block: { attributes: { type: Uint8Array }[] } }[]) {
      for (const attribute of block.block.attributes) expect(() => JSON.parse(Buffer.from(attribute.type).toString())).not.toThrow();
    }
    await call(controller, "Shutdown");
    expect((await started.exited).code).toBe(0);
  });
});

describe("the starts it refuses", () => {

  it("without the magic cookie: says it is a plugin for terraform or tofu, exit 1, nothing on stdout", async () => {
    const started = await start(cmdArgs(), terraformEnv({ TF_PLUGIN_MAGIC_COOKIE: undefined }));
    expect(await started.exited).toEqual({ code: 1, signal: null });
    expect(started.stdout()).toBe("");
    expect(started.stderr()).toMatch(/^terraform-provider-certreseller is a plugin for Terraform and OpenTofu: it is started by `terraform` or `tofu`/);
    expect(started.stderr()).toContain("TF_PLUGIN_MAGIC_COOKIE is not set");
  });

  it("PLUGIN_PROTOCOL_VERSIONS=5: says it speaks 6 only, exit 1", async () => {
    const started = await start(cmdArgs(), terraformEnv({ PLUGIN_PROTOCOL_VERSIONS: "5" }));
    expect(await started.exited).toEqual({ code: 1, signal: null });
    expect(started.stderr()).toContain("terraform-provider-certreseller speaks plugin protocol 6 only, and this client offers 5");
  });

  it("the bin (sdk/bin), built, refuses a start without the cookie the same way", async (ctx) => {
    if (!fs.existsSync(path.join(SDK, "dist", "cmd", "terraform-provider-certreseller.js"))) ctx.skip("the SDK is not built (npm run build)");
    const started = await start([BIN], terraformEnv({ TF_PLUGIN_MAGIC_COOKIE: undefined }));
    expect((await started.exited).code).toBe(1);
    expect(started.stderr()).toMatch(/^terraform-provider-certreseller is a plugin for Terraform and OpenTofu/);
  });
});

describe("the pieces", () => {
  it("parseProtocolVersions reads both orders and ignores junk", () => {
    expect(parseProtocolVersions("6,5")).toEqual([6, 5]);
    expect(parseProtocolVersions("5, 6")).toEqual([5, 6]);
    expect(parseProtocolVersions("x,6")).toEqual([6]);
    expect(parseProtocolVersions(undefined)).toEqual([]);
  });

  it("readHandshakeEnv wants the client certificate unless TLS is off, and a PEM one", () => {
    const base = { TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "6" };
    expect(() => readHandshakeEnv(base)).toThrow(/PLUGIN_CLIENT_CERT is not set/);
    expect(() => readHandshakeEnv({ ...base, PLUGIN_CLIENT_CERT: "junk" })).toThrow(/does not hold a PEM certificate/);
    expect(readHandshakeEnv({ ...base, TF_DISABLE_PLUGIN_TLS: "1" })).toEqual({ clientCertPem: undefined, tlsDisabled: true });
    expect(() => readHandshakeEnv({ ...base, TF_PLUGIN_MAGIC_COOKIE: "wrong" })).toThrow(/set, but not to the value Terraform sets/);
    expect(() => readHandshakeEnv({ ...base, PLUGIN_PROTOCOL_VERSIONS: "" })).toThrow(/offers none/);
  });

  it("handshakeLine strips the base64 padding", () => {
    expect(handshakeLine("/tmp/x/plugin.sock", Buffer.from([1]))).toBe("1|6|unix|/tmp/x/plugin.sock|grpc|AQ");
    expect(handshakeLine("/tmp/x/plugin.sock", undefined)).toBe("1|6|unix|/tmp/x/plugin.sock|grpc|");
  });

  it("hclogLine: level, message, timestamp with microseconds, extra fields", () => {
    const parsed = JSON.parse(hclogLine("warn", "careful", { socket: "/s" }, new Date("2026-01-02T03:04:05.678Z")));
    expect(parsed).toMatchObject({ "@level": "warn", "@message": "careful", socket: "/s" });
    expect(parsed["@timestamp"]).toMatch(/^2026-01-0\dT\d\d:\d\d:05\.678000(Z|[+-]\d\d:\d\d)$/);
  });
});
