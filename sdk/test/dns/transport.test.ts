/**
 * One DNS exchange with a real loopback server, whose send reports an error
 * after the answer came back: the exchange settles once, closes its socket
 * once, and nothing is thrown outside the promise (a throw inside a socket
 * callback would end the provider's process in the middle of an `up`).
 */
import * as dgram from "node:dgram";
import type * as net from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { exchange } from "../../src/dns/transport.js";

const QUERY = Buffer.from([0x12, 0x34, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
const ANSWER = Buffer.from([0x12, 0x34, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

/** Errors thrown where nobody awaits them (inside socket callbacks) during `run`. */
async function uncaughtDuring(run: () => Promise<void>): Promise<unknown[]> {
  const caught: unknown[] = [];
  const listeners = process.listeners("uncaughtException");
  process.removeAllListeners("uncaughtException");
  const onError = (error: unknown) => void caught.push(error);
  process.on("uncaughtException", onError);
  try {
    await run();
    await settle();
  } finally {
    process.off("uncaughtException", onError);
    for (const l of listeners) process.on("uncaughtException", l);
  }
  return caught;
}

afterEach(() => vi.restoreAllMocks());

describe("exchange", () => {
  it("UDP: a send error reported after the answer arrived neither rejects the answer nor closes the socket a second time", async () => {
    const server = dgram.createSocket("udp4");
    await new Promise<void>((resolve) => server.bind(0, "127.0.0.1", resolve));
    server.on("message", (_m, from) => server.send(ANSWER, from.port, from.address));
    // The packet goes out, the answer comes back, and only then does the send's callback report an error.
    const send = dgram.Socket.prototype.send;
    vi.spyOn(dgram.Socket.prototype, "send").mockImplementation(function (this: dgram.Socket, ...args: unknown[]) {
      if (typeof args.at(-1) !== "function") return (send as (...a: unknown[]) => void).call(this, ...args);
      const callback = args.pop() as (error: Error | null) => void;
      return (send as (...a: unknown[]) => void).call(this, ...args, () => setTimeout(() => callback(Object.assign(new Error("send EHOSTUNREACH"), { code: "EHOSTUNREACH" })), 30));
    });
    const close = vi.spyOn(dgram.Socket.prototype, "close");
    let answer: Buffer | undefined;
    const uncaught = await uncaughtDuring(async () => {
      ({ answer } = await exchange({ host: "127.0.0.1", port: (server.address() as net.AddressInfo).port }, QUERY, { transport: "udp", timeoutMs: 1000, tries: 1 }));
    });
    server.close();
    expect(uncaught).toEqual([]);
    expect(answer).toEqual(ANSWER);
    expect(close.mock.contexts.filter((s) => s !== server)).toHaveLength(1);
  });
});
