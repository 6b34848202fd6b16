// The Rfc2136Record provider of the built package, run the way the engine
// runs it (the provider text's `provider("rfc2136-record")`), against a real
// BIND 9: create, update in place and delete checked by asking BIND; records
// that were there before (a CNAME, a TXT, the same value) never replaced,
// hidden or deleted; and each refusal (REFUSED, NOTAUTH, BADSIG, BADKEY,
// BADTIME) failing with a message that names the setting to fix. No Pulumi engine here; the
// quickstart scenario (rfc2136-quickstart.test.ts) adds it.
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startBind, type RunningBind } from "../../../scripts/dns/index.js";
import { dnsReader, type DnsReader } from "./lookup.js";
import { skipWithout } from "../../support/ci.js";

const requireFromHere = createRequire(__filename);
type Provider = Record<string, (...args: unknown[]) => Promise<any>>;
const entry = requireFromHere("pulumi-certreseller/provider") as { provider(name: string): Provider };
const { sendUpdate, readRecords } = requireFromHere("pulumi-certreseller/dist/dns/update.js") as typeof import("../../../sdk/src/dns/update.js");

const KEY = "certreseller-e2e.";
const OUTSIDER = "outsider.";

describe.skipIf(skipWithout(inject("bind") ? undefined : "no BIND 9 (see the e2e setup's [bind] lines)"))("Rfc2136Record against BIND 9", () => {
  let bind: RunningBind;
  let provider: Provider;
  let dns: DnsReader;
  /** The exact messages of the refusals, printed at the end for the record. */
  const messages: Record<string, string> = {};

  const inputs = (over: Record<string, unknown> = {}) => ({
    server: bind.address,
    zone: "e2e.test",
    fqdn: "_dnsauth.www.e2e.test",
    type: "TXT",
    value: "token-1",
    tsigKeyName: KEY,
    tsigSecret: bind.secret,
    ...over,
  });
  const txt = async (name: string) => (await dns.txt(name)).sort();

  async function create(over: Record<string, unknown> = {}): Promise<{ id: string; outs: any }> {
    const { inputs: checked, failures } = await provider.check!({}, inputs(over));
    expect(failures).toEqual([]);
    return provider.create!(checked);
  }

  /** The error a create fails with; its message must never hold a secret. */
  async function refusal(name: string, over: Record<string, unknown>): Promise<string> {
    const error = await create(over).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error, `${name} should fail`).toBeInstanceOf(Error);
    for (const secret of bind.keys.map((k) => k.secret)) expect(error!.message).not.toContain(secret);
    messages[name] = error!.message;
    return error!.message;
  }

  beforeAll(async () => {
    bind = await startBind({
      zones: [{ name: "e2e.test.", updaters: [KEY] }, { name: "locked.test.", updaters: [] }],
      keys: [{ name: KEY }, { name: OUTSIDER }],
    });
    console.log(`[bind] named started in ${bind.startupMs} ms on ${bind.address}`);
    provider = entry.provider("rfc2136-record");
    await provider.configure!({ config: { get: () => undefined } });
    dns = dnsReader(bind.address);
  });

  afterAll(async () => {
    if (bind) {
      console.log(`[bind] its log of updates:\n${bind.log()}`);
      console.log(`[bind] the refusals' messages:\n${Object.entries(messages).map(([k, v]) => `${k}: ${v}`).join("\n")}`);
      await bind.stop();
    }
  });

  it("create publishes the TXT value beside another one at the name; a value change replaces only its own; delete removes only its own", async () => {
    const other = await create({ value: "someone-elses-token" });
    const { id, outs } = await create();
    expect(await txt("_dnsauth.www.e2e.test")).toEqual(["someone-elses-token", "token-1"]);

    const { inputs: news } = await provider.check!(outs, inputs({ value: "token-2" }));
    expect(await provider.diff!(id, outs, news)).toMatchObject({ changes: true, replaces: [] });
    const { outs: updated } = await provider.update!(id, outs, news);
    expect(await txt("_dnsauth.www.e2e.test")).toEqual(["someone-elses-token", "token-2"]);

    await provider.delete!(id, updated);
    expect(await txt("_dnsauth.www.e2e.test")).toEqual(["someone-elses-token"]);
    await provider.delete!(other.id, other.outs);
    expect(await txt("_dnsauth.www.e2e.test")).toEqual([]);

    // BIND's own account: the value change was one update, its delete and its add
    // logged together from the same client port (one message).
    const lines = bind.log().split("\n");
    const added = lines.findIndex((l) => l.includes(`adding an RR at '_dnsauth.www.e2e.test' TXT "token-2"`));
    expect(lines[added - 1]).toMatch(/deleting an RR at _dnsauth\.www\.e2e\.test TXT/);
    const client = (line: string | undefined) => /127\.0\.0\.1#(\d+)/.exec(line ?? "")?.[1];
    expect(client(lines[added - 1])).toBe(client(lines[added]));
    expect(lines.some((l) => l.includes(`/key ${KEY.replace(/\.$/, "")}: updating zone 'e2e.test/IN': adding an RR at '_dnsauth.www.e2e.test' TXT "token-1"`))).toBe(true);
  });

  it("a CNAME is published, repointed in place and deleted", async () => {
    const { id, outs } = await create({ fqdn: "_abc123.www.e2e.test", type: "CNAME", value: "one.dcv.sandbox.test" });
    expect(await dns.cname("_abc123.www.e2e.test")).toEqual(["one.dcv.sandbox.test"]);
    const { inputs: news } = await provider.check!(outs, inputs({ fqdn: "_abc123.www.e2e.test", type: "CNAME", value: "two.dcv.sandbox.test" }));
    const { outs: updated } = await provider.update!(id, outs, news);
    expect(await dns.cname("_abc123.www.e2e.test")).toEqual(["two.dcv.sandbox.test"]);
    await provider.delete!(id, updated);
    expect(await dns.cname("_abc123.www.e2e.test")).toEqual([]);
  });

  // Records "someone else" put in the zone, with the same key, before the resource.
  const put = (fqdn: string, type: "TXT" | "CNAME", value: string) =>
    sendUpdate({ server: bind.address, zone: "e2e.test", tsigKeyName: KEY, tsigAlgorithm: "hmac-sha256", tsigSecret: bind.secret }, { deletes: [], adds: [{ fqdn, type, value, ttl: 60 }] });
  const cname = (name: string) => dns.cname(name);
  const failure = (run: Promise<unknown>) =>
    run.then(
      () => undefined,
      (e: Error) => e,
    );

  it("a CNAME over another CNAME is refused, naming the name, the CNAME there and the server; the CNAME there stays", async () => {
    await put("_over.www.e2e.test", "CNAME", "theirs.dcv.sandbox.test");
    const error = await failure(create({ fqdn: "_over.www.e2e.test", type: "CNAME", value: "ours.dcv.sandbox.test" }));
    expect(await cname("_over.www.e2e.test")).toEqual(["theirs.dcv.sandbox.test"]);
    expect(error?.message).toMatch(/^CNAME record at _over\.www\.e2e\.test: the zone e2e\.test at 127\.0\.0\.1:\d+ already holds CNAME theirs\.dcv\.sandbox\.test there; a CNAME cannot share its name/);
    messages["CNAME over CNAME"] = error!.message;
  });

  it("a CNAME at a name holding a TXT record is refused, naming the TXT record; the TXT record stays and no CNAME appears", async () => {
    await put("_beside.www.e2e.test", "TXT", "their-txt");
    const error = await failure(create({ fqdn: "_beside.www.e2e.test", type: "CNAME", value: "ours.dcv.sandbox.test" }));
    // BIND answered NOERROR to the old prerequisite-less add and ignored it (RFC 2136 3.4.2.2): "added", yet nothing was.
    expect(error, "create must not report a CNAME it did not add").toBeInstanceOf(Error);
    expect(error?.message).toMatch(/^CNAME record at _beside\.www\.e2e\.test: the zone e2e\.test at 127\.0\.0\.1:\d+ already holds TXT "their-txt" there/);
    messages["CNAME beside TXT"] = error!.message;
    expect(await cname("_beside.www.e2e.test")).toEqual([]);
    expect(await txt("_beside.www.e2e.test")).toEqual(["their-txt"]);
  });

  it("a TXT record at a name that is a CNAME is refused, naming the CNAME; nothing changes", async () => {
    await put("_aliased.www.e2e.test", "CNAME", "theirs.dcv.sandbox.test");
    const error = await failure(create({ fqdn: "_aliased.www.e2e.test", type: "TXT", value: "our-token" }));
    expect(error, "create must not report a TXT record it did not add").toBeInstanceOf(Error);
    expect(error?.message).toMatch(/^TXT record at _aliased\.www\.e2e\.test: the zone e2e\.test at 127\.0\.0\.1:\d+ already holds CNAME theirs\.dcv\.sandbox\.test there; a name that is a CNAME holds no other records/);
    messages["TXT at CNAME"] = error!.message;
    expect(await cname("_aliased.www.e2e.test")).toEqual(["theirs.dcv.sandbox.test"]);
    expect(bind.log()).not.toContain("adding an RR at '_aliased.www.e2e.test' TXT");
  });

  it("an identical TXT value that was there before is kept as pre-existing, and survives the resource's delete; its own value change leaves it too", async () => {
    await put("_shared.www.e2e.test", "TXT", "shared-token");
    const { id, outs } = await create({ fqdn: "_shared.www.e2e.test", value: "shared-token" });
    await provider.delete!(id, outs);
    expect(await txt("_shared.www.e2e.test")).toEqual(["shared-token"]);
    expect(outs.preExisting).toBe(true);

    // Adopted, then moved to a value of its own: the new one is the resource's, the old one stays.
    const again = await create({ fqdn: "_shared.www.e2e.test", value: "shared-token" });
    const { inputs: news } = await provider.check!(again.outs, inputs({ fqdn: "_shared.www.e2e.test", value: "own-token" }));
    const { outs: moved } = await provider.update!(again.id, again.outs, news);
    expect(moved.preExisting).toBe(false);
    expect(await txt("_shared.www.e2e.test")).toEqual(["own-token", "shared-token"]);
    await provider.delete!(again.id, moved);
    expect(await txt("_shared.www.e2e.test")).toEqual(["shared-token"]);
  });

  it("an identical CNAME that was there before is kept as pre-existing and survives delete", async () => {
    await put("_same.www.e2e.test", "CNAME", "same.dcv.sandbox.test");
    const { id, outs } = await create({ fqdn: "_same.www.e2e.test", type: "CNAME", value: "same.dcv.sandbox.test" });
    await provider.delete!(id, outs);
    expect(await cname("_same.www.e2e.test")).toEqual(["same.dcv.sandbox.test"]);
    expect(outs.preExisting).toBe(true);
  });

  it("a new ttl while another value shares the TXT RRset at the old TTL is refused naming ttl, and BIND keeps both values at their TTL; at the same TTL the value changes", async () => {
    const target = { server: bind.address, zone: "e2e.test", tsigKeyName: KEY, tsigAlgorithm: "hmac-sha256" as const, tsigSecret: bind.secret };
    const held = async () => (await readRecords(target, "_ttl.www.e2e.test", "TXT")).map((r) => `${r.text} ${r.ttl}`).sort();
    await put("_ttl.www.e2e.test", "TXT", "their-value");
    const { id, outs } = await create({ fqdn: "_ttl.www.e2e.test", value: "our-value" });
    expect(await held()).toEqual(['"our-value" 60', '"their-value" 60']);

    const { inputs: news } = await provider.check!(outs, inputs({ fqdn: "_ttl.www.e2e.test", value: "our-value", ttl: 3600 }));
    const logged = bind.log().length;
    const error = await failure(provider.update!(id, outs, news));
    expect(error?.message).toMatch(
      /^ttl: the TXT RRset at _ttl\.www\.e2e\.test \(zone e2e\.test at 127\.0\.0\.1:\d+\) also holds a value this resource did not add \("their-value"\), and an RRset has one TTL for all its values \(RFC 2181 5\.2\): ttl 3600 would change theirs from 60 too\. Nothing was changed/,
    );
    messages["ttl shared with another value"] = error!.message;
    expect(await held()).toEqual(['"our-value" 60', '"their-value" 60']);
    // BIND's account: the first try's prerequisite (the RRset is exactly our value) failed, and nothing was deleted or added.
    expect(bind.log().slice(logged)).toMatch(/_ttl\.www\.e2e\.test\/TXT: 'RRset exists \(value dependent\)' prerequisite not satisfied/);
    expect(bind.log().slice(logged)).not.toMatch(/(adding|deleting) an RR at '?_ttl\.www\.e2e\.test/);

    const { inputs: renamed } = await provider.check!(outs, inputs({ fqdn: "_ttl.www.e2e.test", value: "our-next-value" }));
    const { outs: updated } = await provider.update!(id, outs, renamed);
    expect(await held()).toEqual(['"our-next-value" 60', '"their-value" 60']);
    await provider.delete!(id, updated);
    await sendUpdate(target, { deletes: [{ fqdn: "_ttl.www.e2e.test", type: "TXT", value: "their-value", ttl: 0 }], adds: [] });
    expect(await held()).toEqual([]);
  });

  it("another type at the same name is a replacement that deletes the old record first, as a CNAME shares its name with nothing", async () => {
    const old = await create({ fqdn: "_switch.www.e2e.test", value: "txt-first" });
    const { inputs: news } = await provider.check!(old.outs, inputs({ fqdn: "_switch.www.e2e.test", type: "CNAME", value: "then.dcv.sandbox.test" }));
    expect(await provider.diff!(old.id, old.outs, news)).toMatchObject({ replaces: ["type"], deleteBeforeReplace: true });
    // The engine's order for deleteBeforeReplace: the old record's delete, then the new one's create.
    await provider.delete!(old.id, old.outs);
    const { outs } = await provider.create!(news);
    expect(outs.preExisting).toBe(false);
    expect(await cname("_switch.www.e2e.test")).toEqual(["then.dcv.sandbox.test"]);
    await provider.delete!(old.id, outs);
    expect(await cname("_switch.www.e2e.test")).toEqual([]);
  });

  it("records created in parallel at one name each add their own value (read back and retried against what is there), and each delete removes only its own", async () => {
    const values = ["p-1", "p-2", "p-3", "p-4", "p-5"];
    const made = await Promise.all(values.map((value) => create({ fqdn: "_parallel.www.e2e.test", value })));
    expect(await txt("_parallel.www.e2e.test")).toEqual(values);
    expect(made.map((m) => m.outs.preExisting)).toEqual([false, false, false, false, false]);
    await provider.delete!(made[2]!.id, made[2]!.outs);
    expect(await txt("_parallel.www.e2e.test")).toEqual(["p-1", "p-2", "p-4", "p-5"]);
    for (const m of made) await provider.delete!(m.id, m.outs);
    expect(await txt("_parallel.www.e2e.test")).toEqual([]);
  });

  it("REFUSED: a zone whose policy takes no updates, or a key the policy does not grant, names zone and the key", async () => {
    expect(await refusal("REFUSED (zone takes no updates)", { zone: "locked.test", fqdn: "_dnsauth.www.locked.test" })).toMatch(
      /the server refused the update for zone locked\.test \(REFUSED\): check `zone` .* update-policy\/allow-update grants the key certreseller-e2e\. \(`tsigKeyName`\) TXT updates at _dnsauth\.www\.locked\.test/,
    );
    const outsider = bind.keys.find((k) => k.name === OUTSIDER)!;
    expect(await refusal("REFUSED (key not granted)", { tsigKeyName: OUTSIDER, tsigSecret: outsider.secret })).toMatch(
      /refused the update for zone e2e\.test \(REFUSED\).*grants the key outsider\. \(`tsigKeyName`\)/,
    );
  });

  it("NOTAUTH: a zone the server does not serve names zone and server", async () => {
    expect(await refusal("NOTAUTH", { zone: "elsewhere.test", fqdn: "_dnsauth.www.elsewhere.test" })).toMatch(
      /the server is not authoritative for zone elsewhere\.test \(NOTAUTH\): check `zone` .* and `server`/,
    );
  });

  it("BADSIG: a wrong secret names tsigSecret", async () => {
    expect(await refusal("BADSIG", { tsigSecret: Buffer.alloc(32, 7).toString("base64") })).toMatch(
      /rejected the TSIG signature of key certreseller-e2e\. \(BADSIG\): `tsigSecret` is not the secret the server holds for that key/,
    );
  });

  it("BADKEY: an unknown key name, or the right name with another algorithm, names tsigKeyName and tsigAlgorithm", async () => {
    expect(await refusal("BADKEY (name)", { tsigKeyName: "no-such-key." })).toMatch(/does not know the TSIG key no-such-key\. with algorithm hmac-sha256 \(BADKEY\): check `tsigKeyName`.*`tsigAlgorithm`/);
    expect(await refusal("BADKEY (algorithm)", { tsigAlgorithm: "hmac-sha512" })).toMatch(/does not know the TSIG key certreseller-e2e\. with algorithm hmac-sha512 \(BADKEY\)/);
  });

  // The one case the provider cannot provoke: the signature's time comes from
  // this machine's clock. sendUpdate's clock hook signs an hour in the past.
  it("BADTIME: a signature an hour off names the clocks", async () => {
    const target = { server: bind.address, zone: "e2e.test", tsigKeyName: KEY, tsigAlgorithm: "hmac-sha256" as const, tsigSecret: bind.secret };
    const error = await sendUpdate(target, { deletes: [], adds: [{ fqdn: "_dnsauth.late.e2e.test", type: "TXT", value: "late", ttl: 60 }] }, { now: () => Date.now() - 3_600_000 }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/the server rejected the TSIG time \(BADTIME\): the clocks differ by more than the 300 s a signature allows \(this machine's clock read .*, the server's .*\)/);
    expect(error?.message).not.toContain(bind.secret);
    messages.BADTIME = error!.message;
    expect(await txt("_dnsauth.late.e2e.test")).toEqual([]);
  });

  it("BIND logged each refusal, and applied none of them", async () => {
    const log = bind.log();
    expect(log).toMatch(/update 'locked\.test\/IN' denied/);
    expect(log).toMatch(/not authoritative for update zone \(NOTAUTH\)/);
    expect(log).toMatch(/tsig verify failure \(BADSIG\)/);
    expect(log).toMatch(/tsig verify failure \(BADKEY\)/);
    expect(log).toMatch(/tsig verify failure \(BADTIME\)/);
    expect(await txt("_dnsauth.www.locked.test")).toEqual([]);
    expect(await txt("_dnsauth.www.e2e.test")).toEqual([]);
  });
});
