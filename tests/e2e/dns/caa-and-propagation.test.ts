// The two checks that keep money from being spent on a certificate the CA
// will not issue, through the real engine with BIND 9 in the loop:
//  - CAA at preview: a name whose CAA records name another CA fails the
//    preview (and `up`) before anything is bought — 0 orders at the sandbox.
//  - propagation before the Certificate waits: a validation record published
//    into the wrong zone is caught, naming the record and the server lacking
//    it; the Order stays paid in state (1 order); published where it belongs,
//    the sandbox's CA (`validation: "real"`, asking the same BIND) finds it
//    and the certificate issues.
import type { Stack } from "@pulumi/pulumi/automation";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import * as certs from "pulumi-certreseller";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { opensslVerify } from "../../support/openssl.js";
import { startZoneServer, type ZoneServer } from "../../support/zone-server.js";
import { startTestSandbox, type TestSandbox } from "../harness/sandbox.js";
import { createWorld, failureOf, openStack, recorder, type E2eWorld } from "../harness/stack.js";
import { ordersProgram } from "../programs.js";
import { skipWithout } from "../../support/ci.js";

/** caa.test lets only Let's Encrypt issue; open.test and shop.test publish no CAA; other.test is where a record goes astray. */
const ZONES = {
  "caa.test": ['@ CAA 0 issue "letsencrypt.org"', '@ CAA 0 iodef "mailto:security@caa.test"'],
  "open.test": ["www A 192.0.2.10"],
  "shop.test": ["www A 192.0.2.20"],
  "other.test": [],
};

describe.skipIf(skipWithout(inject("bind") ? undefined : "no BIND 9 (see the e2e setup's [bind] lines)"))("CAA at preview, propagation before the Certificate waits (BIND in the loop)", () => {
  let dns: ZoneServer;

  beforeAll(async () => {
    dns = await startZoneServer(ZONES);
    console.log(`[bind] zones ${Object.keys(ZONES).join(", ")} on ${dns.address}`);
  });
  afterAll(async () => dns?.stop());

  describe("CAA refusing at preview", () => {
    let sandbox: TestSandbox;
    let world: E2eWorld;
    let stack: Stack;
    const program = ordersProgram({ site: { productCode: "sandbox-dv-multi", domain: "www.open.test", sanDomains: ["www.caa.test"] } });

    beforeAll(async () => {
      sandbox = await startTestSandbox();
      world = createWorld(sandbox);
      // The checks look up CAA where the (sandbox's) CA would: the BIND above.
      stack = await openStack(world, "caa-refusal", program, "e2e", { "certreseller:dnsResolvers": { value: dns.address } });
    });
    afterAll(async () => {
      await stack?.destroy().catch(() => undefined);
      await sandbox?.stop();
      world?.dispose();
    });

    it("preview fails on the name, naming the CAA records and the issuer domain the product's CA needs", async () => {
      const t = recorder();
      const message = await failureOf(stack.preview({ onOutput: t.onOutput, onEvent: t.onEvent }));
      const expected =
        'www.caa.test: CAA at caa.test allows only letsencrypt.org (0 issue "letsencrypt.org", 0 iodef "mailto:security@caa.test"); ' +
        "the product's CA (brand sandbox) issues as sandbox-ca.test — add `0 issue \"sandbox-ca.test\"` at caa.test, or choose another product. " +
        "The CA checks CAA before issuing and would refuse after the order is paid; nothing was bought.";
      console.log(`[preview] ${message.split("\n").find((line) => line.includes("CAA at caa.test"))?.trim()}`);
      expect(message).toContain(expected);
      expect(message).toMatch(/sanDomains/);
      expect(message).not.toMatch(/www\.open\.test: CAA/);
    });

    it("up is refused the same way: 0 orders at the sandbox, no CreateOrder, the balance untouched", async () => {
      const before = (await sandbox.management.account(sandbox.username)).balance;
      await sandbox.management.clearRequests();
      const message = await failureOf(stack.up());
      expect(message).toContain("www.caa.test: CAA at caa.test allows only letsencrypt.org");
      expect(await sandbox.management.orders()).toEqual([]);
      expect((await sandbox.management.requests()).map((r) => r.operation)).not.toContain("CreateOrder");
      expect((await sandbox.management.account(sandbox.username)).balance).toBe(before);
    });

    it("once the zone names the CA, the same preview passes (still nothing bought)", async () => {
      await dns.setZone("caa.test", [...ZONES["caa.test"], '@ CAA 0 issue "sandbox-ca.test"']);
      try {
        await stack.preview();
        expect(await sandbox.management.orders()).toEqual([]);
      } finally {
        await dns.setZone("caa.test", ZONES["caa.test"]);
      }
    });
  });

  describe("the propagation check catching a record published to the wrong zone", () => {
    let sandbox: TestSandbox;
    let world: E2eWorld;
    let stack: Stack;
    let orderNo: string;
    let token: string;

    /** The Order and its Validation; with `certificate`, the Certificate, checking what BIND serves. */
    const program =
      (certificate: boolean): PulumiFn =>
      async () => {
        const order = new certs.Order("shop", { productCode: "sandbox-dv-single", domain: "www.shop.test", verificationMethod: "dns" });
        const validation = new certs.Validation("shop", { order });
        const outputs: Record<string, unknown> = { orderNo: order.orderNo, records: validation.records };
        if (!certificate) return outputs;
        // BIND listens on a test port, not 53: name it rather than let the check find the zone's servers.
        const cert = new certs.Certificate("shop", { order, propagationResolvers: [dns.address], propagationTimeoutMinutes: 0.1 });
        return { ...outputs, fullChainPem: cert.fullChainPem };
      };

    beforeAll(async () => {
      // The sandbox's CA validates for real, asking the same BIND.
      sandbox = await startTestSandbox({ validation: "real" }, { resolver: dns.address });
      world = createWorld(sandbox);
      stack = await openStack(world, "propagation", program(false), "e2e", { "certreseller:dnsResolvers": { value: dns.address } });
      const up = await stack.up();
      orderNo = String(up.outputs.orderNo?.value);
      const records = up.outputs.records?.value as Array<{ fqdn: string; recordType: string; value: string }>;
      expect(records.map((r) => [r.fqdn, r.recordType])).toEqual([["_dnsauth.www.shop.test", "TXT"]]);
      token = records[0]!.value;
    });
    afterAll(async () => {
      await stack?.destroy().catch(() => undefined);
      await sandbox?.stop();
      world?.dispose();
    });

    it("the Certificate's up fails naming the missing record and the server lacking it; the Order stays paid in state, 1 order", async () => {
      // The classic slip: the record's full name typed into another zone's form.
      await dns.setZone("other.test", [`_dnsauth.www.shop.test TXT "${token}"`]);
      await sandbox.management.clearRequests();
      const t = recorder();
      const message = await failureOf(stack.up({ program: program(true), onOutput: t.onOutput, onEvent: t.onEvent }));
      const missing = `TXT _dnsauth.www.shop.test "${token}": lacking on ${dns.address}: _dnsauth.www.shop.test does not exist (NXDOMAIN)`;
      console.log(`[up] ${message.split("\n").filter((l) => /validation record|lacking on|Nothing was bought/.test(l)).map((l) => l.trim()).join("\n     ")}`);
      expect(message).toContain(`order ${orderNo}: 1 validation record(s) not visible on every DNS server after 0.1 min (propagationTimeoutMinutes):`);
      expect(message).toContain(missing);
      expect(message).toMatch(/Nothing was bought or cancelled: the order is paid and stays in state with its Order; only this Certificate failed/);

      // Reads only: the records (GetRecord) and the download tried first; no status read, no purchase, no cancellation.
      const operations = (await sandbox.management.requests()).map((r) => r.operation);
      expect(operations).not.toEqual(expect.arrayContaining(["CreateOrder"]));
      expect(operations).not.toContain("CancelOrder");
      expect(operations).not.toContain("GetCertificateStatus");
      expect(operations).toContain("GetRecord");
      const orders = await sandbox.management.orders();
      expect(orders.map((o) => o.orderNo)).toEqual([orderNo]);
      const state = (await stack.exportStack()).deployment as { resources: Array<{ type: string; urn: string; id?: string }> };
      const kinds = state.resources.map((r) => r.urn.slice(r.urn.lastIndexOf("::") + 2) + ":" + r.type.slice(r.type.lastIndexOf(":") + 1));
      expect(kinds).toEqual(expect.arrayContaining(["shop:Order", "shop:Validation"]));
      expect(kinds).not.toContain("shop:Certificate");
      expect(state.resources.find((r) => r.type.endsWith(":Order"))?.id).toBe(orderNo);
    });

    it("published where it belongs, the check passes, the CA finds it in BIND and the certificate issues — still 1 order", async () => {
      await dns.setZone("other.test", []);
      await dns.setZone("shop.test", [...ZONES["shop.test"], `_dnsauth.www TXT "${token}"`]);
      const up = await stack.up({ program: program(true) });
      expect(opensslVerify(String(up.outputs.fullChainPem?.value), await sandbox.management.rootPem())).toMatch(/leaf\.pem: OK/);
      const orders = await sandbox.management.orders();
      expect(orders.map((o) => o.orderNo)).toEqual([orderNo]);
      expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    });
  });
});
