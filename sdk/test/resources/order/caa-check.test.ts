/**
 * The Order's CAA check at preview, against the sandbox's product list and
 * a scripted DNS (no network): which names it refuses and on which input,
 * what it only warns about, when it runs at all, and that it buys nothing.
 */
import { describe, expect, it } from "vitest";
import { createContext, type ProviderContext } from "../../../src/provider/index.js";
import { checkCaa } from "../../../src/resources/order/caa.js";
import { check } from "../../../src/resources/order/check.js";
import type { OrderInputs } from "../../../src/resources/order/inputs.js";
import { createLog } from "../../../src/provider/log.js";
import { caa, DEFAULT_SERVER, scriptedDns, type ScriptedDns } from "../../support/scripted-dns.js";
import { useHarness } from "./harness.js";
import { journalEntryKey, openJournal } from "../../../src/journal/index.js";

const h = useHarness({}, { requests: true });

/** letsencrypt.org only at example.com; wildcards forbidden under shop.example.com; nothing at example.org. */
function publicDns(): ScriptedDns {
  return scriptedDns({
    [DEFAULT_SERVER]: {
      "example.com": { CAA: [caa("issue", "letsencrypt.org"), caa("iodef", "mailto:sec@example.com")] },
      "www.example.com": { A: ["192.0.2.1"] },
      "shop.example.com": { CAA: [caa("issue", "sandbox-ca.test"), caa("issuewild", ";")] },
      "example.org": { A: ["192.0.2.2"] },
      "broken.example.net": { fail: "ESERVFAIL" },
    },
  });
}

function contextWith(lines: string[], settings: Record<string, unknown> = {}): ProviderContext {
  return createContext({ type: "Order", settings: { ...h.ctx.settings, ...settings }, sink: (level, line) => lines.push(`${level}: ${line}`) });
}

async function preview(raw: Record<string, unknown>, options: { dns?: ScriptedDns; settings?: Record<string, unknown>; olds?: Record<string, unknown> } = {}) {
  const lines: string[] = [];
  const dns = options.dns ?? publicDns();
  const result = await check(contextWith(lines, options.settings), (options.olds ?? {}) as OrderInputs, { journalKey: "proj/dev/caa", ...raw } as unknown as OrderInputs, dns);
  // The purchase's plan line ("will buy …", check.test.ts) is not this file's subject.
  const caaLines = lines.filter((line) => !/^info: [^:]*: will buy /.test(line));
  return { failures: (result.failures ?? []).map((f) => `${f.property}: ${f.reason}`), inputs: result.inputs!, lines: caaLines, queries: dns.queries };
}

const ON = { caaCheck: true };

describe("the CAA check's default against a sandbox on this machine", () => {
  it("is off (one info line per process) while no DNS server is named: sandbox records and test names are in no public DNS", async () => {
    const first = await preview({ productCode: "sandbox-dv-single", domain: "example.com" });
    expect(first.failures).toEqual([]);
    expect(first.queries).toEqual([]);
    expect(first.lines).toEqual([
      expect.stringMatching(/^info: certreseller Order "caa": CAA not checked: the Partner API is on this machine \(127\.0\.0\.1, a sandbox\).*set caaCheck: true/),
    ]);
    expect((await preview({ productCode: "sandbox-dv-single", domain: "example.com" })).lines).toEqual([]);
  });

  it("is on once certreseller:dnsResolvers names a server, and asks that server", async () => {
    const dns = scriptedDns({ "127.0.0.1:5353": { "example.com": { CAA: [caa("issue", "letsencrypt.org")] } } });
    const { failures, queries } = await preview({ productCode: "sandbox-dv-single", domain: "example.com" }, { dns, settings: { dnsResolvers: ["127.0.0.1:5353"] } });
    expect(failures).toEqual([expect.stringMatching(/^domain: example\.com: CAA at example\.com allows only letsencrypt\.org/)]);
    expect(queries).toEqual(["127.0.0.1:5353 example.com CAA"]);
  });

  it("is on off loopback without any setting (the real service)", async () => {
    const dns = publicDns();
    // Only the product list is read from the sandbox; the settings say the service is remote.
    const lines: string[] = [];
    const remote = createContext({ type: "Order", settings: { ...h.ctx.settings, baseUrl: "https://partner.example.net" }, api: h.ctx.api(), sink: (l, s) => lines.push(`${l}: ${s}`) });
    const result = await check(remote, {} as OrderInputs, { journalKey: "proj/dev/caa", productCode: "sandbox-dv-single", domain: "www.example.com" } as unknown as OrderInputs, dns);
    expect(result.failures?.map((f) => f.property)).toEqual(["domain"]);
  });

  it("caaCheck: false turns it off everywhere", async () => {
    const { failures, queries, lines } = await preview({ productCode: "sandbox-dv-single", domain: "example.com", caaCheck: false }, { settings: { dnsResolvers: ["127.0.0.1:53"] } });
    expect([failures, queries, lines]).toEqual([[], [], []]);
  });
});

describe("names the CAA records refuse", () => {
  it("fail the preview on the input that holds them, naming the name, where the records are, the records and the CA's issuer domains", async () => {
    const { failures } = await preview({ productCode: "sandbox-dv-multi", domain: "example.org", sanDomains: ["www.example.com"], ...ON });
    expect(failures).toEqual([
      "sanDomains: www.example.com: CAA at example.com allows only letsencrypt.org (0 issue \"letsencrypt.org\", 0 iodef \"mailto:sec@example.com\"); " +
        "the product's CA (brand sandbox) issues as sandbox-ca.test — add `0 issue \"sandbox-ca.test\"` at example.com, or choose another product. " +
        "The CA checks CAA before issuing and would refuse after the order is paid; nothing was bought.",
    ]);
  });

  it("are not checked when the purchase journal holds this Order's order (a killed up): the preview says it will be resumed, not bought", async () => {
    const journal = openJournal(h.ctx.settings);
    const key = journalEntryKey({ journalKey: "proj/dev/caa-resume" });
    const bought = await h.ctx.api().createOrder({ productCode: "sandbox-dv-multi", domain: "example.org", sanDomains: ["www.example.com"], months: 12 } as never);
    const planned = await preview({ journalKey: "proj/dev/caa-resume", productCode: "sandbox-dv-multi", domain: "example.org", sanDomains: ["www.example.com"], ...ON });
    expect(planned.failures).toEqual([expect.stringContaining("CAA at example.com allows only letsencrypt.org")]);
    await journal.recordIntent({ key, domain: "example.org", productCode: "sandbox-dv-multi", names: ["example.org", "www.example.com"] });
    await journal.recordOrder(key, bought.orderNo, {});
    const { failures, lines } = await preview({ journalKey: "proj/dev/caa-resume", productCode: "sandbox-dv-multi", domain: "example.org", sanDomains: ["www.example.com"], ...ON });
    expect(failures).toEqual([]);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^info: .*will resume order ${bought.orderNo} .*nothing is bought`)));
    expect(lines).not.toContainEqual(expect.stringMatching(/will buy/));
    await journal.clear(key);
  });

  it("a wildcard is judged by issuewild where the RRset has it", async () => {
    const { failures } = await preview({ productCode: "sandbox-dv-flex", domain: "shop.example.com", wildcardDomains: ["*.shop.example.com"], ...ON });
    expect(failures).toEqual([expect.stringMatching(/^wildcardDomains: \*\.shop\.example\.com: CAA at shop\.example\.com allows no CA for wildcard names \(issuewild\) at all/)]);
  });

  it("names without CAA anywhere up the tree, and IP addresses, pass", async () => {
    expect((await preview({ productCode: "sandbox-dv-single", domain: "example.org", ...ON })).failures).toEqual([]);
    const ip = await preview({ productCode: "sandbox-dv-ip", domain: "8.8.8.8", verificationMethod: "file", ...ON });
    expect([ip.failures, ip.queries]).toEqual([[], []]);
  });

  it("caaIssuerDomains replaces the brand's domains (and the failure says so)", async () => {
    expect((await preview({ productCode: "sandbox-dv-single", domain: "www.example.com", caaIssuerDomains: ["LetsEncrypt.org."], ...ON })).failures).toEqual([]);
    const { failures } = await preview({ productCode: "sandbox-dv-single", domain: "www.example.com", caaIssuerDomains: ["ca.example.net", "ca2.example.net"], ...ON });
    expect(failures).toEqual([expect.stringContaining("; caaIssuerDomains names ca.example.net, ca2.example.net — add `0 issue \"ca.example.net\"` at example.com")]);
  });

  it("buys nothing: no Partner API call at all (the product list is cached by then), only DNS queries", async () => {
    await h.mgmt("DELETE", "/requests");
    const { queries } = await preview({ productCode: "sandbox-dv-single", domain: "www.example.com", ...ON });
    expect(await h.operations()).toEqual([]);
    expect(queries).toEqual(["default www.example.com CAA", "default www.example.com CNAME", "default example.com CAA"]);
  });
});

describe("what the check only warns about", () => {
  it("a failed lookup: a warning naming the name and the error, no failure", async () => {
    const { failures, lines } = await preview({ productCode: "sandbox-dv-multi", domain: "example.org", sanDomains: ["broken.example.net"], ...ON });
    expect(failures).toEqual([]);
    expect(lines).toEqual([
      'warn: certreseller Order "caa": CAA not checked for broken.example.net (broken.example.net CAA from default: the server answered SERVFAIL): the DNS lookup failed. ' +
        "The CA checks CAA before issuing; if it refuses, the order is already paid. Run the preview again, or set certreseller:dnsResolvers to a resolver that answers",
    ]);
  });

  it("a brand the table does not know, or a product list that could not be read", async () => {
    const lines: string[] = [];
    const log = createLog({ type: "Order", name: "proj/dev/caa", sink: (level, line) => lines.push(`${level}: ${line}`) });
    const request = { names: [{ property: "domain" as const, name: "www.example.com" }], productCode: "acme-dv", brandCode: "acme-trust", productKnown: true, caaCheck: true };
    const dns = publicDns();
    expect(await checkCaa(dns, h.ctx.settings, log, request)).toEqual([]);
    expect(await checkCaa(dns, h.ctx.settings, log, { ...request, brandCode: undefined, productKnown: false })).toEqual([]);
    expect(lines).toEqual([
      'warn: certreseller Order "caa": CAA not checked: product acme-dv has brand "acme-trust", and which CAA issuer domains name its CA is not known to this package ' +
        '(the Partner API does not publish them); set caaIssuerDomains (e.g. ["sectigo.com"]) to check, or caaCheck: false to silence this',
      'warn: certreseller Order "caa": CAA not checked: the product list could not be read, so the CA of acme-dv is not known; set caaIssuerDomains to check without it',
    ]);
    expect(dns.queries).toEqual([]);
    // With the override, an unknown brand is checked.
    expect(await checkCaa(dns, h.ctx.settings, log, { ...request, caaIssuerDomains: ["acme-ca.test"] })).toEqual([{ property: "domain", reason: expect.stringContaining("www.example.com: CAA at example.com") }]);
  });
});

describe("when the check runs", () => {
  it("only for a new purchase: an existing order whose purchase inputs are unchanged is not looked up again", async () => {
    const raw = { productCode: "sandbox-dv-single", domain: "www.example.com", ...ON };
    const planned = await preview(raw);
    expect(planned.failures).toHaveLength(1);
    const again = await preview(raw, { olds: planned.inputs as unknown as Record<string, unknown> });
    expect([again.failures, again.queries]).toEqual([[], []]);
    // A new name is a new purchase: checked.
    expect((await preview({ ...raw, domain: "example.com" }, { olds: planned.inputs as unknown as Record<string, unknown> })).failures).toHaveLength(1);
  });

  it("not for an adoption, which buys nothing", async () => {
    expect((await preview({ productCode: "sandbox-dv-single", domain: "www.example.com", adoptOrderNo: "CERT1", ...ON })).queries).toEqual([]);
  });

  it("its inputs are checked, never sent with CreateOrder, and no change to them is a change of the Order", async () => {
    const bad = await preview({ productCode: "sandbox-dv-single", domain: "example.org", caaCheck: "yes", caaIssuerDomains: ["not a domain"] });
    expect(bad.failures).toEqual([
      'caaCheck: must be true or false, got "yes"',
      'caaIssuerDomains: "not a domain" is not an issuer domain (a domain name as CAA "issue" values name a CA, e.g. "sectigo.com")',
    ]);
    expect((await preview({ productCode: "sandbox-dv-single", domain: "example.org", caaIssuerDomains: [] })).failures).toEqual([
      "caaIssuerDomains: must name at least one CAA issuer domain; to skip the CAA check set caaCheck: false",
    ]);
  });
});
