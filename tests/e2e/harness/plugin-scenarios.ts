/**
 * The scenarios the plugin tests run in each language (YAML, Python): each
 * test brings its own program and checks what its language's code says; the
 * steps and what the sandbox must show afterwards are here, once.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PartnerClient } from "pulumi-certreseller";
import { expect } from "vitest";
import { opensslVerify } from "../../support/openssl.js";
import type { PluginStack, PluginWorld } from "./plugin.js";
import type { TestSandbox } from "./sandbox.js";
import { backendText, failureOf } from "./stack.js";

/** The app id of an API key (`<appId>:<secret>`). */
export const appIdOf = (key: string) => key.slice(0, key.indexOf(":"));

/**
 * `up` of a program buying one Certificate validated through the sandbox's
 * DNS record resource: the installed plugin (not an ambient one) buys one
 * order, the sandbox issues from the published TXT record, and neither the
 * private key nor the API key is in state in plaintext. The program exports
 * `orderNo`, `accountId`, `fullChainPem` and `privateKeyPem`.
 */
export async function upIssuesFromPublishedRecord(stack: PluginStack, domain: string): Promise<{ up: string; outputs: Record<string, string> }> {
  const { sandbox, world } = stack;
  const up = await stack.run(["up", "--yes"]);
  expect(up).toMatch(/certreseller:index:Certificate/);
  expect(up).not.toMatch(/pulumi-resource-certreseller from \$PATH/); // the installed plugin, not an ambient one
  const outputs = JSON.parse(await stack.run(["stack", "output", "--json", "--show-secrets"])) as Record<string, string>;
  expect((await sandbox.management.orders()).map((o) => o.orderNo)).toEqual([outputs.orderNo]);
  expect(opensslVerify(outputs.fullChainPem!, await sandbox.management.rootPem())).toMatch(/OK/);
  expect(outputs.privateKeyPem).toMatch(/BEGIN PRIVATE KEY/);
  // The record the Validation gave was published (the sandbox issued only because it was).
  const published = await sandbox.management.call<{ fqdn: string; type: string }[]>("GET", "/dns-records");
  expect(published).toEqual([expect.objectContaining({ fqdn: expect.stringContaining(domain), type: "TXT" })]);

  // Secret outputs are secret: the key is encrypted in state, the API key never there.
  const state = backendText(world);
  expect(state).not.toContain(outputs.privateKeyPem!.split("\n")[1]);
  expect(state).not.toContain(sandbox.apiKey.split(":")[1]);
  const plain = JSON.parse(await stack.run(["stack", "output", "--json"])) as Record<string, string>;
  expect(plain.privateKeyPem).toBe("[secret]");
  return { up, outputs };
}

/** `destroy` of {@link upIssuesFromPublishedRecord}'s stack refunds its order in full and removes the record: one CreateOrder and one CancelOrder in all. */
export async function destroyRefunds(stack: PluginStack, orderNo: string): Promise<void> {
  const { sandbox } = stack;
  const destroy = await stack.run(["destroy", "--yes"]);
  expect(destroy).toMatch(/refunded 100\.00/);
  expect((await sandbox.management.order(orderNo)).refund).toMatchObject({ mode: "direct" });
  expect((await sandbox.management.orders()).length).toBe(1);
  expect(await sandbox.management.call("GET", "/dns-records")).toEqual([]);
  const calls = (await sandbox.management.requests()).map((r) => r.operation);
  expect(calls.filter((op) => op === "CreateOrder")).toHaveLength(1);
  expect(calls.filter((op) => op === "CancelOrder")).toHaveLength(1);
}

/** The two account keys of the two-accounts programs (config `keyA`, `keyB`). */
export interface TwoKeys {
  keyA: string;
  keyB: string;
}

/** Config of a two-accounts program's stack in `cwd`: the sandbox's URL, the world's journal, each key as secret config. */
export async function configureTwoAccounts(world: PluginWorld, cwd: string, { keyA, keyB }: TwoKeys): Promise<void> {
  await world.pulumi(["config", "set", "baseUrl", world.sandbox.url], { cwd });
  await world.pulumi(["config", "set", "journalDir", world.journalDir], { cwd });
  await world.pulumi(["config", "set", "--secret", "keyA"], { cwd, input: keyA });
  await world.pulumi(["config", "set", "--secret", "keyB"], { cwd, input: keyB });
}

/**
 * Preview and `up` of a two-accounts program (explicit providers `accountA`
 * and `accountB`, exporting `accountOfA`/`accountOfB` and `orderA`/`orderB`):
 * the preview says which account each provider buys with, each order is
 * bought with its own key, and neither key is in state. Returns the outputs.
 */
export async function upBuysWithEachAccount(stack: PluginStack, { keyA, keyB }: TwoKeys): Promise<Record<string, string>> {
  const { sandbox, world } = stack;
  const preview = await stack.run(["preview"]);
  expect(preview).toContain(`provider accountA buys with account ${appIdOf(keyA)} (its apiKey)`);
  expect(preview).toContain(`provider accountB buys with account ${appIdOf(keyB)} (its apiKey)`);
  await stack.run(["up", "--yes"]);
  const out = JSON.parse(await stack.run(["stack", "output", "--json"])) as Record<string, string>;
  expect(out.accountOfA).toBe(appIdOf(keyA));
  expect(out.accountOfB).toBe(appIdOf(keyB));
  const creates = (await sandbox.management.requests()).filter((r) => r.operation === "CreateOrder");
  expect(creates.map((r) => r.appId).sort()).toEqual([appIdOf(keyA), appIdOf(keyB)].sort());
  // Neither key is in the state in plaintext (they are secret provider inputs).
  const state = backendText(world);
  for (const key of [keyA, keyB]) expect(state).not.toContain(key.split(":")[1]);
  return out;
}

/**
 * A stack `without-key` of a two-accounts program in `cwd` whose provider B
 * has no apiKey, with account A's key in the environment (a provider falling
 * back to it would buy B's order under A): preview and up fail naming apiKey,
 * nothing is bought, and the stack is removed.
 */
export async function withoutKeyBuysNothing(world: PluginWorld, cwd: string, keys: TwoKeys): Promise<void> {
  await world.pulumi(["stack", "init", "without-key"], { cwd });
  await configureTwoAccounts(world, cwd, keys);
  await world.sandbox.management.clearRequests();
  const env = { CERTRESELLER_API_KEY: keys.keyA };
  for (const command of [["preview"], ["up", "--yes"]]) {
    const message = await failureOf(world.pulumi(command, { cwd, env }));
    expect(message).toMatch(/apiKey/);
    expect(message).toMatch(/its own key/);
    expect(message).not.toContain(keys.keyA.split(":")[1]);
  }
  expect((await world.sandbox.management.requests()).filter((r) => r.operation === "CreateOrder")).toHaveLength(0);
  await world.pulumi(["stack", "rm", "--yes", "--force"], { cwd });
}

/**
 * An order bought elsewhere (another tool, the reseller's web console:
 * straight through the Partner API) for `domain` and `www.<domain>`, issued;
 * the sandbox's request log cleared after.
 */
export async function boughtElsewhere(sandbox: TestSandbox, domain: string): Promise<{ orderNo: string; certId: string }> {
  const client = new PartnerClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
  const { orderNo } = await client.createOrder({ productCode: "sandbox-dv-multi", domain, sanDomains: [`www.${domain}`], months: 12, verificationMethod: "dns" });
  await client.applySign({ orderNo });
  const { certId } = await client.downloadCertificate({ orderNo });
  await client.close();
  await sandbox.management.clearRequests();
  return { orderNo, certId };
}

/** `pulumi import` (from an import file) of the order as Order `site` and of its certificate as Certificate `site`; the program code it wrote to `out`. */
export async function importOrderAndCertificate(stack: PluginStack, { orderNo, certId }: { orderNo: string; certId: string }, out: string): Promise<string> {
  fs.writeFileSync(
    path.join(stack.dir, "import.json"),
    JSON.stringify({
      resources: [
        { type: "certreseller:index:Order", name: "site", id: orderNo },
        { type: "certreseller:index:Certificate", name: "site", id: `${orderNo}/${certId}` },
      ],
    }),
  );
  const imported = await stack.run(["import", "--file", "import.json", "--yes", "--protect=false", "--out", out]);
  expect(imported).toMatch(/imported/i);
  return fs.readFileSync(path.join(stack.dir, out), "utf8");
}

/** With the imported code in the program: preview and up change nothing and buy nothing; imported means managed, so destroy cancels and refunds it. */
export async function importedIsManaged(stack: PluginStack, orderNo: string): Promise<void> {
  const { sandbox } = stack;
  await stack.run(["preview", "--expect-no-changes"]);
  const up = await stack.run(["up", "--yes", "--expect-no-changes"]);
  expect(up).not.toMatch(/bought/);
  const calls = (await sandbox.management.requests()).map((r) => r.operation);
  expect(calls).not.toContain("CreateOrder");
  expect(calls).not.toContain("ApplySign");
  expect(calls).not.toContain("CancelOrder");
  expect((await sandbox.management.orders()).map((o) => o.orderNo)).toEqual([orderNo]);

  const destroy = await stack.run(["destroy", "--yes"]);
  expect(destroy).toMatch(/cancelled; refunded/);
}
