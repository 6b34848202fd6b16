/**
 * The Certificate's propagation check, against the sandbox in `published`
 * mode (a certificate issues only once its records are published there)
 * and a scripted DNS: the check runs before the first status read, passes
 * once the records are visible, and otherwise fails the Certificate naming
 * what is missing — having bought, cancelled and submitted nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCertificateInputs } from "../../../src/resources/certificate/check.js";
import { createCertificateHandlers } from "../../../src/resources/certificate/handlers.js";
import type { CertificateInputs } from "../../../src/resources/certificate/inputs.js";
import { PropagationCheckFailedError } from "../../../src/resources/certificate/propagation.js";
import { IssuanceTimeoutError } from "../../../src/resources/certificate/wait.js";
import { StatusReadGate } from "../../../src/resources/shared/status-gate.js";
import { startBench, type SandboxBench } from "../../support/orders.js";
import { scriptedDns, virtualClock, type NameRecords, type ScriptedDns } from "../../support/scripted-dns.js";

let h: SandboxBench;

beforeAll(async () => {
  h = await startBench("Certificate", { validation: "published", statusCooldownSeconds: 0, issueAfterSeconds: 0 });
});
afterAll(async () => h?.stop());

/** The public DNS: example.com is served by ns1.example.net (192.0.2.1), which starts empty. */
function dnsFor(served: Record<string, NameRecords> = {}): ScriptedDns {
  return scriptedDns({
    default: { "example.com": { SOA: true, NS: ["ns1.example.net"] }, "ns1.example.net": { A: ["192.0.2.1"] } },
    "192.0.2.1:53": served,
  });
}

function handlersWith(dns: ScriptedDns, clock = virtualClock(Date.now())) {
  return { handlers: createCertificateHandlers({ clock, gate: new StatusReadGate(clock), dns }), clock };
}

async function operationsSince(orderNo: string): Promise<string[]> {
  const log = (await h.mgmt("GET", "/requests")) as { operation: string; orderNo: string | null }[];
  return log.filter((e) => e.orderNo === orderNo).map((e) => e.operation);
}

const inputs = (orderNo: string, more: Partial<CertificateInputs> = {}): CertificateInputs => ({ orderNo, timeoutMinutes: 60, ...more });

describe("the propagation check before the Certificate waits", () => {
  it("waits until the TXT record is on the zone's server, then waits for issuance as before", async () => {
    const order = await h.buy({ productCode: "sandbox-dv-single", domain: "example.com", verificationMethod: "dns" });
    const set = await h.ctx.api().getRecord({ orderNo: order.orderNo });
    const token = set.dnsRecords[0]!.value!;
    const served: Record<string, NameRecords> = {};
    const dns = dnsFor(served);
    // The record "propagates" during the first wait: to the DNS the check asks, and to the sandbox's CA.
    const clock = virtualClock(Date.now(), async () => {
      served["_dnsauth.example.com"] = { TXT: [token] };
      await h.mgmt("POST", "/dns-records", { fqdn: "_dnsauth.example.com", type: "TXT", value: token });
    });
    const { handlers } = handlersWith(dns, clock);
    h.lines.length = 0;
    await h.mgmt("DELETE", "/requests");
    const { outs } = await handlers.create(h.ctx, inputs(order.orderNo, { propagationCheck: true }));
    expect(outs!.domains).toEqual(["example.com"]);
    expect(clock.slept[0]).toBe(2_000);
    expect(dns.queries).toContain("192.0.2.1:53 _dnsauth.example.com TXT");
    expect(h.lines.join("\n")).toMatch(/checking that 1 dns validation record\(s\) are visible on the authoritative servers of each record's zone \(up to 10 min\)/);
    expect(h.lines.join("\n")).toMatch(/every validation record is visible on every server/);
    // GetRecord for the check; no money moved.
    expect(await operationsSince(order.orderNo)).toEqual(expect.arrayContaining(["DownloadCertificate", "GetRecord", "GetCertificateStatus"]));
    expect(await operationsSince(order.orderNo)).not.toEqual(expect.arrayContaining(["CreateOrder"]));
  });

  it("fails at its timeout naming the missing record, its value and the server lacking it; nothing bought, cancelled or submitted, no status read", async () => {
    const order = await h.buy({ productCode: "sandbox-dv-single", domain: "www.example.com", verificationMethod: "dns" });
    const token = (await h.ctx.api().getRecord({ orderNo: order.orderNo })).dnsRecords[0]!.value!;
    // Published, but one label off (into the zone's apex instead of www): the CA would not find it either.
    const dns = dnsFor({ "_dnsauth.example.com": { TXT: [token] } });
    const { handlers } = handlersWith(dns);
    await h.mgmt("DELETE", "/requests");
    const error = await handlers.create(h.ctx, inputs(order.orderNo, { propagationCheck: true, propagationTimeoutMinutes: 0.5 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PropagationCheckFailedError);
    expect((error as Error).message).toBe(
      `order ${order.orderNo}: 1 validation record(s) not visible on every DNS server after 0.5 min (propagationTimeoutMinutes):\n` +
        `  - TXT _dnsauth.www.example.com "${token}": lacking on ns1.example.net (192.0.2.1): _dnsauth.www.example.com does not exist (NXDOMAIN)\n` +
        "The CA looks these records up the same way, so it would not find them yet. Nothing was bought or cancelled: the order is paid and " +
        "stays in state with its Order; only this Certificate failed. Publish each record at exactly that name, in the zone its servers serve, " +
        "then run `pulumi up` again — or raise propagationTimeoutMinutes, name propagationResolvers, or set propagationCheck: false.",
    );
    expect(await operationsSince(order.orderNo)).toEqual(["DownloadCertificate", "GetRecord"]);
  });

  it("checks a cname order's CNAME record against the resolvers the program names", async () => {
    const order = await h.buy({ productCode: "sandbox-dv-single", domain: "example.com", verificationMethod: "cname" });
    const record = (await h.ctx.api().getRecord({ orderNo: order.orderNo })).dnsRecords[0]!;
    const fqdn = `${record.label}.example.com`;
    const dns = scriptedDns({ "10.0.0.53:53": { [fqdn]: { CNAME: "somewhere.else.test" } } });
    const { handlers } = handlersWith(dns);
    const checked = checkCertificateInputs(inputs(order.orderNo, { propagationResolvers: ["10.0.0.53"], propagationTimeoutMinutes: 0.1 }));
    const error = await handlers.create(h.ctx, checked.inputs as CertificateInputs).catch((e: unknown) => e);
    expect((error as Error).message).toContain(`  - CNAME ${fqdn} -> ${record.value}: lacking on 10.0.0.53:53: ${fqdn} points to somewhere.else.test\n`);
    expect(new Set(dns.queries.map((q) => q.split(" ")[0]))).toEqual(new Set(["10.0.0.53:53"]));
  });

  it("by default is skipped against a sandbox on this machine with no DNS server named (one info line), and the wait goes on", async () => {
    const order = await h.buy({ productCode: "sandbox-dv-single", domain: "skip.example.com", verificationMethod: "dns" });
    const dns = dnsFor();
    const { handlers } = handlersWith(dns);
    h.lines.length = 0;
    const error = await handlers.create(h.ctx, inputs(order.orderNo, { timeoutMinutes: 0.001 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IssuanceTimeoutError);
    expect(dns.queries).toEqual([]);
    expect(h.lines[0]).toMatch(
      new RegExp(`DNS propagation not checked: the Partner API is on this machine \\(127\\.0\\.0\\.1, a sandbox\\).*set propagationCheck: true \\(or propagationResolvers\\) to check it`),
    );
  });

  it("propagationCheck: false reads nothing; a file order has no DNS record to check", async () => {
    const dnsOrder = await h.buy({ productCode: "sandbox-dv-single", domain: "off.example.com", verificationMethod: "dns" });
    const fileOrder = await h.buy({ productCode: "sandbox-dv-single", domain: "file.example.com", verificationMethod: "file" });
    const dns = dnsFor();
    const { handlers } = handlersWith(dns);
    await h.mgmt("DELETE", "/requests");
    await expect(handlers.create(h.ctx, inputs(dnsOrder.orderNo, { propagationCheck: false, timeoutMinutes: 0.001 }))).rejects.toBeInstanceOf(IssuanceTimeoutError);
    expect(await operationsSince(dnsOrder.orderNo)).not.toContain("GetRecord");
    await expect(handlers.create(h.ctx, inputs(fileOrder.orderNo, { propagationCheck: true, timeoutMinutes: 0.001 }))).rejects.toBeInstanceOf(IssuanceTimeoutError);
    expect(dns.queries).toEqual([]);
  });
});

describe("the check's inputs", () => {
  it("are validated, each failure naming the input and the rule; servers come back canonical", () => {
    const bad = checkCertificateInputs({ orderNo: "CERT1", propagationCheck: "yes" as never, propagationTimeoutMinutes: 0, propagationResolvers: ["ns1.example.com"] });
    expect(bad.failures).toEqual([
      { property: "propagationCheck", reason: 'propagationCheck must be true or false; got "yes"' },
      { property: "propagationTimeoutMinutes", reason: "propagationTimeoutMinutes must be a number of minutes above 0 and at most 1440 (a day); got 0" },
      {
        property: "propagationResolvers",
        reason: 'propagationResolvers "ns1.example.com" is not an IP address with an optional port (e.g. 192.0.2.53, 192.0.2.53:5353 or [2001:db8::53]:53)',
      },
    ]);
    const good = checkCertificateInputs({ orderNo: "CERT1", propagationResolvers: ["127.0.0.1:5353", "::1"], propagationTimeoutMinutes: 2.5 });
    expect(good.failures).toEqual([]);
    expect(good.inputs.propagationResolvers).toEqual(["127.0.0.1:5353", "[::1]:53"]);
  });
});
