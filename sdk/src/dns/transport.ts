/**
 * One DNS exchange: a message out, the answer with the same ID back, over
 * UDP (resent on silence, as resolvers do) or TCP (RFC 1035 4.2.2: a
 * two-byte length before each message).
 */
import * as dgram from "node:dgram";
import { lookup } from "node:dns/promises";
import * as net from "node:net";
import type { ServerAddress } from "./server-address.js";

export type Transport = "udp" | "tcp";

export interface ExchangeOptions {
  transport: Transport;
  /** Per try (UDP) or for the whole exchange (TCP). */
  timeoutMs: number;
  /** UDP sends; an update lost on the way is sent again unchanged. */
  tries: number;
}

/** The answer, and how many times the message went out for it (UDP resends on silence: a lost answer's message may have been applied). */
export interface Exchanged {
  answer: Buffer;
  sends: number;
}

/**
 * Sends `message` to `server` and resolves with the first answer carrying
 * its ID. Rejects with the socket's error, or an Error with `code:
 * "ETIMEOUT"` when nothing came back in time.
 *
 * @example
 * const { answer } = await exchange({ host: "127.0.0.1", port: 53 }, signed, { transport: "udp", timeoutMs: 2000, tries: 3 });
 */
export async function exchange(server: ServerAddress, message: Buffer, options: ExchangeOptions): Promise<Exchanged> {
  const address = net.isIP(server.host) ? server.host : (await lookup(server.host)).address;
  return options.transport === "udp" ? udpExchange(address, server.port, message, options) : tcpExchange(address, server.port, message, options.timeoutMs);
}

function timeout(what: string): Error {
  return Object.assign(new Error(what), { code: "ETIMEOUT" });
}

/**
 * The one ending of an exchange: the first call releases the socket and
 * settles; later ones (a send's error reported after the answer, a timer, a
 * late event) do nothing, so nothing is ever thrown inside a socket callback.
 */
function once(release: () => void, resolve: (answer: Buffer) => void, reject: (error: Error) => void): (error: Error | undefined, answer?: Buffer) => void {
  let done = false;
  return (error, answer) => {
    if (done) return;
    done = true;
    release();
    if (error) reject(error);
    else resolve(answer!);
  };
}

function udpExchange(address: string, port: number, message: Buffer, options: ExchangeOptions): Promise<Exchanged> {
  const id = message.readUInt16BE(0);
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket(net.isIP(address) === 6 ? "udp6" : "udp4");
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = once(
      () => {
        clearTimeout(timer);
        socket.close();
      },
      (answer) => resolve({ answer, sends: sent }),
      reject,
    );
    const send = () => {
      sent++;
      socket.send(message, port, address, (error) => error && finish(error));
      timer = setTimeout(() => (sent < options.tries ? send() : finish(timeout(`nothing came back after ${sent} tries of ${options.timeoutMs} ms`))), options.timeoutMs);
    };
    socket.on("error", (error) => finish(error));
    // Anything else arriving on the socket (a late answer to an earlier try, noise) is not this answer.
    socket.on("message", (answer, from) => {
      if (from.port === port && answer.length >= 2 && answer.readUInt16BE(0) === id) finish(undefined, answer);
    });
    send();
  });
}

/** RFC 1035 4.2.2: a TCP message is preceded by its length in two bytes. */
const MAX_TCP_MESSAGE = 0xffff;

function tcpExchange(address: string, port: number, message: Buffer, timeoutMs: number): Promise<Exchanged> {
  // Framed before connecting: a message too long for the length prefix is refused here, not thrown inside a socket event.
  if (message.length > MAX_TCP_MESSAGE) {
    return Promise.reject(new Error(`the update is ${message.length} bytes; a DNS message over TCP may have at most ${MAX_TCP_MESSAGE}`));
  }
  const length = Buffer.alloc(2);
  length.writeUInt16BE(message.length);
  const framed = Buffer.concat([length, message]);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port });
    let received = Buffer.alloc(0);
    let timer: NodeJS.Timeout | undefined;
    const finish = once(
      () => {
        clearTimeout(timer);
        socket.destroy();
      },
      (answer) => resolve({ answer, sends: 1 }),
      reject,
    );
    timer = setTimeout(() => finish(timeout(`nothing came back within ${timeoutMs} ms`)), timeoutMs);
    socket.on("error", (error) => finish(error));
    socket.on("connect", () => socket.write(framed));
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 2 && received.length >= 2 + received.readUInt16BE(0)) finish(undefined, received.subarray(2, 2 + received.readUInt16BE(0)));
    });
    socket.on("end", () => finish(new Error(`the server closed the TCP connection after ${received.length} bytes, before a whole answer`)));
  });
}
