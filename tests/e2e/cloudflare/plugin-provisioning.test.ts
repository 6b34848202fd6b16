// The rungs of scripts/cloudflare/ in isolation, each in private folders:
// an installed plugin in the Pulumi home is taken as it is; the prebuilt
// copy is unpacked, checked against its recorded sha256 and cached under
// the archive's hash (the second time it comes from the cache); a copy that
// unpacks to another binary is refused; with nothing at all the error says
// what to run.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CLOUDFLARE_PLUGIN_ARCHIVE,
  CLOUDFLARE_PLUGIN_SHA256,
  CloudflarePluginUnavailableError,
  ensureCloudflarePlugin,
  installedPluginPath,
  thirdPartyDir,
} from "../../../scripts/cloudflare/plugin.js";
import { skipWithout } from "../../support/ci.js";

describe("Cloudflare plugin provisioning", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-cloudflare-provisioning-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const folders = () => ({ pulumiHome: path.join(dir, "home"), cacheRoot: path.join(dir, "cache"), thirdPartyDir: path.join(dir, "third-party") });

  it("a plugin installed in the Pulumi home is used as it is; an interrupted install (a .partial beside it) is not", async () => {
    const options = folders();
    const installed = installedPluginPath(options.pulumiHome);
    fs.mkdirSync(path.dirname(installed), { recursive: true });
    fs.writeFileSync(installed, "#!/bin/sh\n", { mode: 0o755 });
    expect(await ensureCloudflarePlugin(options)).toMatchObject({ source: "pulumi-home", binaryPath: installed, version: "6.17.0" });
    fs.writeFileSync(`${path.dirname(installed)}.partial`, "");
    await expect(ensureCloudflarePlugin(options)).rejects.toThrow(CloudflarePluginUnavailableError);
  });

  it("a prebuilt copy that unpacks to another binary is refused, naming both hashes, and nothing is cached", async () => {
    const options = folders();
    fs.mkdirSync(options.thirdPartyDir);
    fs.writeFileSync(path.join(dir, "not-the-plugin"), "#!/bin/sh\necho hi\n");
    execFileSync("sh", ["-c", `xz -c "${path.join(dir, "not-the-plugin")}" > "${path.join(options.thirdPartyDir, CLOUDFLARE_PLUGIN_ARCHIVE)}"`]);
    await expect(ensureCloudflarePlugin(options)).rejects.toThrow(new RegExp(`sha256 [0-9a-f]{64}, not the ${CLOUDFLARE_PLUGIN_SHA256}`));
    const cached = fs.readdirSync(options.cacheRoot, { recursive: true }).map(String);
    expect(cached.filter((f) => f.endsWith("pulumi-resource-cloudflare"))).toEqual([]);
  });

  it("nothing installed, no copy, no CLI: the error names the install command", async () => {
    await expect(ensureCloudflarePlugin(folders())).rejects.toThrow(/`pulumi plugin install resource cloudflare 6\.17\.0`/);
  });

  const archive = path.join(thirdPartyDir(), CLOUDFLARE_PLUGIN_ARCHIVE);
  const noArchive = fs.existsSync(archive) ? undefined : `no prebuilt Cloudflare plugin at ${archive} (CERTRESELLER_THIRD_PARTY_DIR names its folder)`;
  it.skipIf(skipWithout(noArchive))("the prebuilt copy beside the checkout: unpacked and checked once, then from the cache", async () => {
    const options = { ...folders(), thirdPartyDir: thirdPartyDir() };
    const first = await ensureCloudflarePlugin(options);
    expect(first.source).toBe("third-party");
    expect(first.binaryPath.startsWith(options.cacheRoot)).toBe(true);
    expect(fs.statSync(first.binaryPath).mode & 0o111).not.toBe(0);
    const second = await ensureCloudflarePlugin(options);
    expect(second).toMatchObject({ source: "cache", binaryPath: first.binaryPath });
    console.log(`[cloudflare] unpacked in ${first.elapsedMs} ms, then cached in ${second.elapsedMs} ms`);
  });
});
