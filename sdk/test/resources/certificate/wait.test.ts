import { describe, expect, it } from "vitest";
import type { Clock } from "../../../src/resources/shared/clock.js";
import { StatusReadGate, type GatedRead } from "../../../src/resources/shared/status-gate.js";
import { IssuanceFailedError, IssuanceTimeoutError, waitForIssuance, type IssuanceStatus } from "../../../src/resources/certificate/wait.js";

/** Virtual time: sleeping advances it, so a 3-minute cooldown costs nothing. */
function virtualClock(start = Date.UTC(2026, 10, 22, 9, 0, 0)): Clock & { t: number } {
  const c = {
    t: start,
    now: () => c.t,
    sleep: async (ms: number) => {
      c.t += Math.max(0, ms);
    },
  };
  return c;
}

/** A fake service enforcing the per-order cooldown the way the API does. */
function fakeService(clock: Clock, script: IssuanceStatus[], cooldownSeconds = 180) {
  let lastRead = -Infinity;
  const reads: { at: number; refused: boolean }[] = [];
  let i = 0;
  const read = async (): Promise<GatedRead<IssuanceStatus>> => {
    const at = clock.now();
    if (at - lastRead < cooldownSeconds * 1000) {
      reads.push({ at, refused: true });
      return { kind: "rate-limited", retryAfterSeconds: Math.ceil((lastRead + cooldownSeconds * 1000 - at) / 1000) };
    }
    lastRead = at;
    reads.push({ at, refused: false });
    const status = script[Math.min(i++, script.length - 1)]!;
    return { kind: "status", status, cooldownSeconds };
  };
  return { read, reads, touch: () => (lastRead = clock.now()) };
}

const pending = (verified: boolean[]): IssuanceStatus => ({
  certStatus: 2,
  domainStatuses: verified.map((v, i) => ({ domain: `d${i}.example.com`, method: "dns", verified: v })),
});
const issued: IssuanceStatus = { certStatus: 1, domainStatuses: [{ domain: "d0.example.com", verified: true }] };

describe("waitForIssuance", () => {
  it("reads at once, then exactly one cooldown apart, never refused, and prints progress", async () => {
    const clock = virtualClock();
    const svc = fakeService(clock, [pending([false, false]), pending([true, false]), issued]);
    const lines: string[] = [];
    const start = clock.now();
    const status = await waitForIssuance({ orderNo: "CERT1", gateKey: "k", gate: new StatusReadGate(clock), clock, timeoutMs: 60 * 60_000, readStatus: svc.read, log: (l) => lines.push(l) });
    expect(status.certStatus).toBe(1);
    expect(svc.reads.map((r) => r.refused)).toEqual([false, false, false]);
    expect(svc.reads[0]!.at).toBe(start);
    const gaps = svc.reads.slice(1).map((r, i) => r.at - svc.reads[i]!.at);
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(180_000), expect(g).toBeLessThan(181_000);
    expect(lines[0]).toMatch(/2 of 2 unverified \(d0\.example\.com, d1\.example\.com\); next check at 09:03:00Z \(in 180 s\)/);
    expect(lines[1]).toMatch(/1 of 2 unverified \(d1\.example\.com\)/);
  });

  it("honours retry_after when the order was read elsewhere, and then reads once", async () => {
    const clock = virtualClock();
    const svc = fakeService(clock, [issued]);
    svc.touch(); // another process just read the status
    clock.t += 100_000;
    const lines: string[] = [];
    await waitForIssuance({ orderNo: "CERT1", gateKey: "k", gate: new StatusReadGate(clock), clock, timeoutMs: 600_000, readStatus: svc.read, log: (l) => lines.push(l) });
    expect(svc.reads.map((r) => r.refused)).toEqual([true, false]);
    expect(lines[0]).toMatch(/refused by the service's rate limit/);
  });

  it("times out without sending a read it could not use, naming the unverified domains", async () => {
    const clock = virtualClock();
    const svc = fakeService(clock, [pending([true, false])]);
    const err = await waitForIssuance({ orderNo: "CERT1", gateKey: "k", gate: new StatusReadGate(clock), clock, timeoutMs: 5 * 60_000, readStatus: svc.read, log: () => {} }).catch((e) => e);
    expect(err).toBeInstanceOf(IssuanceTimeoutError);
    expect(err.message).toMatch(/not issued within timeoutMinutes 5 .*still unverified: d1\.example\.com/);
    // Reads at 0 and 180 s; the next (360 s) would fall after the 300 s deadline.
    expect(svc.reads).toHaveLength(2);
    expect(clock.t).toBe(svc.reads[1]!.at); // failed at once, no idle wait until the deadline
  });

  it("a timeout shorter than the cooldown fails at once and says why it did not wait until the deadline", async () => {
    const clock = virtualClock();
    const svc = fakeService(clock, [pending([false])]);
    const err = await waitForIssuance({ orderNo: "CERT1", gateKey: "k", gate: new StatusReadGate(clock), clock, timeoutMs: 60_000, readStatus: svc.read, log: () => {} }).catch((e) => e);
    expect(err).toBeInstanceOf(IssuanceTimeoutError);
    expect(clock.t).toBe(Date.UTC(2026, 10, 22, 9, 0, 0)); // one read, no idle minute
    expect(err.message).toMatch(/^order CERT1: not issued within timeoutMinutes 1 \(started 09:00:00Z; still unverified: d0\.example\.com\)\./);
    // The reason for failing before the deadline, in plain words: the next read the service allows falls after it.
    expect(err.message).toContain(
      "The service allows the next status read at 09:03:00Z, after this wait's deadline (09:01:00Z), so no read could see the certificate issued in time: the wait stops now instead of idling until the deadline.",
    );
    expect(err.message).toMatch(/Publish the validation records, then run up again or raise timeoutMinutes above the service's status-read cooldown\.$/);
  });

  it("fails clearly when issuance failed", async () => {
    const clock = virtualClock();
    const svc = fakeService(clock, [pending([false]), { certStatus: 3, caStatusText: "CAA forbids", domainStatuses: [] }]);
    const err = await waitForIssuance({ orderNo: "CERT1", gateKey: "k", gate: new StatusReadGate(clock), clock, timeoutMs: 3_600_000, readStatus: svc.read, log: () => {} }).catch((e) => e);
    expect(err).toBeInstanceOf(IssuanceFailedError);
    expect(err.message).toMatch(/order CERT1: issuance failed, cert_status 3 \(CA says: CAA forbids\)/);
  });

  it("fails at once for an order never submitted", async () => {
    const clock = virtualClock();
    const svc = fakeService(clock, [{ certStatus: 0, domainStatuses: [] }]);
    await expect(waitForIssuance({ orderNo: "CERT1", gateKey: "k", gate: new StatusReadGate(clock), clock, timeoutMs: 3_600_000, readStatus: svc.read, log: () => {} })).rejects.toThrow(/cert_status 0.*ApplySign/);
  });

  it("two waiters on one order share reads instead of tripping the cooldown", async () => {
    const clock = virtualClock();
    const svc = fakeService(clock, [pending([false]), pending([false]), issued]);
    const gate = new StatusReadGate(clock);
    const opts = { orderNo: "CERT1", gateKey: "k", gate, clock, timeoutMs: 3_600_000, readStatus: svc.read, log: () => {} };
    const [a, b] = await Promise.all([waitForIssuance(opts), waitForIssuance(opts)]);
    expect(a.certStatus).toBe(1);
    expect(b.certStatus).toBe(1);
    expect(svc.reads.every((r) => !r.refused)).toBe(true);
    expect(svc.reads).toHaveLength(3);
  });
});
