/**
 * Worlds for TypeScript folder programs composed with `@pulumi/cloudflare`:
 * the real Cloudflare provider plugin installed into the world's private
 * Pulumi home, the sandbox playing both the Partner API and Cloudflare's
 * DNS records API, and `pulumi` commands typed in the program's folder.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { CloudflareRequestEntry } from "certreseller-sandbox";
import { inject } from "vitest";
import { cloudflareInstallArgs } from "../../../scripts/cloudflare/plugin.js";
import { repoRoot } from "../../../scripts/engine/index.js";
import type { TestSandbox } from "../harness/sandbox.js";
import { createWorld, type E2eWorld } from "../harness/stack.js";

export interface CloudflareWorld extends E2eWorld {
  /** Runs `pulumi <args> --non-interactive` in `cwd`; resolves with stdout (and stderr after it with `withStderr`), rejects with both. */
  pulumi(args: string[], cwd: string, input?: string, options?: { withStderr?: boolean }): Promise<string>;
  /** A zone of the sandbox's Cloudflare API, made through its management API. */
  zone: { id: string; name: string; token: string };
  /** What `cloudflare:baseUrl` takes. */
  cloudflareApiUrl: string;
  /** The Cloudflare requests the sandbox answered, in order. */
  cloudflareRequests(): Promise<CloudflareRequestEntry[]>;
  /** A fresh program folder under the repository's ignored tmp/, so `pulumi-certreseller` and `@pulumi/cloudflare` resolve from the workspace. */
  programDir(files: Record<string, string>): string;
}

export async function cloudflareWorld(sandbox: TestSandbox, zoneName: string): Promise<CloudflareWorld> {
  const plugin = inject("cloudflarePlugin");
  if (!plugin) throw new Error("no Cloudflare provider plugin (the global setup says why)");
  const world = createWorld(sandbox, { directoryProgram: true });
  const pulumi: CloudflareWorld["pulumi"] = (args, cwd, input, { withStderr = false } = {}) =>
    new Promise((resolve, reject) => {
      const child = execFile(
        world.environment.pulumiPath,
        [...args, "--non-interactive"],
        { cwd, env: { ...process.env, ...world.environment.env }, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => (error ? reject(new Error(`pulumi ${args.join(" ")} failed:\n${stdout}\n${stderr}`, { cause: error })) : resolve(withStderr ? `${stdout}\n${stderr}` : stdout)),
      );
      if (input !== undefined) child.stdin!.end(input);
    });
  await pulumi(cloudflareInstallArgs(plugin.binaryPath), repoRoot);
  const zone = await sandbox.management.call<{ id: string; name: string; token: string }>("POST", "/cloudflare/zones", { name: zoneName });
  const dirs: string[] = [];
  return {
    ...world,
    pulumi,
    zone,
    cloudflareApiUrl: `${sandbox.url}/client/v4`,
    cloudflareRequests: () => sandbox.management.call<CloudflareRequestEntry[]>("GET", "/cloudflare/requests"),
    programDir(files) {
      fs.mkdirSync(path.join(repoRoot, "tmp"), { recursive: true });
      const dir = fs.mkdtempSync(path.join(repoRoot, "tmp", "cloudflare-program-"));
      for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
      dirs.push(dir);
      return dir;
    },
    dispose() {
      world.dispose();
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Stack config for the world's sandbox account and Cloudflare zone: secrets on stdin, as `pulumi config set --secret` reads them. */
export async function configureCloudflareStack(world: CloudflareWorld, cwd: string, settings: Record<string, string> = {}): Promise<void> {
  await world.pulumi(["config", "set", "--secret", "certreseller:apiKey"], cwd, world.sandbox.apiKey);
  await world.pulumi(["config", "set", "certreseller:baseUrl", world.sandbox.url], cwd);
  await world.pulumi(["config", "set", "certreseller:journalDir", world.journalDir], cwd);
  await world.pulumi(["config", "set", "--secret", "cloudflare:apiToken"], cwd, world.zone.token);
  await world.pulumi(["config", "set", "cloudflare:baseUrl", world.cloudflareApiUrl], cwd);
  for (const [key, value] of Object.entries(settings)) await world.pulumi(["config", "set", key, value], cwd);
}

/** The Cloudflare requests as `METHOD path status [code]` lines. */
export function requestLines(entries: CloudflareRequestEntry[]): string[] {
  return entries.map((e) => `${e.method} ${e.path} ${e.status}${e.code === null ? "" : ` ${e.code}`}`);
}
