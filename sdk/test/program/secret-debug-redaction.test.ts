import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import pulumiLog = require("@pulumi/pulumi/log");
import {
  SECRET_SIGNATURE,
  installSecretDebugRedaction,
  redactSecretDebugMessage,
  secretDebugRedactionInstalled,
} from "../../src/program/secret-debug-redaction.js";

const KEY_LINE = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDistinctive";
// The shape the runtime logs: a protobuf toString of the RegisterResource answer.
const LEAKY =
  `RegisterResource RPC finished: resource:site[pulumi-nodejs:dynamic/certreseller:Certificate]; err: null, ` +
  `resp: urn:pulumi:dev::p::x,id-1,,4dabf18193072939515e22adb298388d,${SECRET_SIGNATURE},value,-----BEGIN PRIVATE KEY-----\n${KEY_LINE}`;

describe("secret debug redaction", () => {
  it("drops the payload of a line that carries the secret signature, keeping which RPC it was", () => {
    const out = redactSecretDebugMessage(LEAKY);
    expect(out).not.toContain(KEY_LINE);
    expect(out).not.toContain(SECRET_SIGNATURE);
    expect(out).toContain("RegisterResource RPC finished: resource:site");
    expect(out).toContain("withheld");
  });

  it("leaves lines without secrets untouched", () => {
    const plain = "RegisterResource RPC finished: resource:site; err: null, resp: urn:x,id-1";
    expect(redactSecretDebugMessage(plain)).toBe(plain);
  });

  it("wraps a log module once, forwarding redacted text to the original", async () => {
    const seen: string[] = [];
    const mod = { debug: async (msg: string) => void seen.push(msg) };
    installSecretDebugRedaction(mod);
    const once = mod.debug;
    installSecretDebugRedaction(mod);
    expect(mod.debug).toBe(once);
    await mod.debug(LEAKY);
    await mod.debug("plain line");
    expect(seen).toHaveLength(2);
    expect(seen[0]).not.toContain(KEY_LINE);
    expect(seen[1]).toBe("plain line");
  });

  it("is installed on the program's @pulumi/pulumi by loading the package (fresh process, built package)", () => {
    // A fresh process: in this one the import above has installed it already.
    const probe =
      'require("pulumi-certreseller");' +
      'const log = require("@pulumi/pulumi/log");' +
      'process.exit(log.debug[Symbol.for("pulumi-certreseller.secretDebugRedaction")] ? 0 : 3);';
    const run = spawnSync(process.execPath, ["-e", probe], { cwd: path.resolve(__dirname, "../.."), encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(secretDebugRedactionInstalled(pulumiLog as never)).toBe(true);
  });
});
