import { createSocket, type RemoteInfo } from "node:dgram";

const TYPE = { A: 1, CNAME: 5, TXT: 16 } as const;
type RecordType = "TXT" | "CNAME";

/**
 * A tiny authoritative DNS server over UDP on 127.0.0.1 for the tests: answers
 * TXT and CNAME questions from an in-memory table, NXDOMAIN for unknown names
 * and an empty NOERROR answer for a known name without the asked type. Just
 * enough RFC 1035 for c-ares (node:dns) to accept the answers.
 */
export async function startDnsServer(): Promise<{
  address: string;
  set(name: string, type: RecordType, values: string[]): void;
  queries: { name: string; type: number }[];
  stop(): Promise<void>;
}> {
  const table = new Map<string, { type: RecordType; values: string[] }[]>();
  const queries: { name: string; type: number }[] = [];
  const socket = createSocket("udp4");

  socket.on("message", (query: Buffer, peer: RemoteInfo) => {
    const question = readQuestion(query);
    if (question === undefined) return;
    queries.push({ name: question.name, type: question.type });
    const entries = table.get(question.name.toLowerCase());
    const answers = (entries ?? [])
      .filter((e) => TYPE[e.type] === question.type)
      .flatMap((e) => e.values.map((v) => answer(e.type, v)));
    const rcode = entries === undefined ? 3 : 0;
    const header = Buffer.alloc(12);
    header.writeUInt16BE(query.readUInt16BE(0), 0); // id
    header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | 0x0080 | rcode, 2); // QR, AA, RD echoed, RA
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, query.subarray(12, question.end), ...answers]), peer.port, peer.address);
  });

  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    set(name, type, values) {
      const key = name.toLowerCase();
      table.set(key, [...(table.get(key) ?? []).filter((e) => e.type !== type), { type, values }]);
    },
    queries,
    stop: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

function readQuestion(query: Buffer): { name: string; type: number; end: number } | undefined {
  if (query.length < 12 || query.readUInt16BE(4) < 1) return undefined;
  const labels: string[] = [];
  let at = 12;
  while (at < query.length && query[at] !== 0) {
    const length = query[at]!;
    labels.push(query.toString("latin1", at + 1, at + 1 + length));
    at += 1 + length;
  }
  if (at + 5 > query.length) return undefined;
  return { name: labels.join("."), type: query.readUInt16BE(at + 1), end: at + 5 };
}

/** One answer record whose owner is the question name (pointer to offset 12). */
function answer(type: RecordType, value: string): Buffer {
  const rdata = type === "TXT" ? txtData(value) : encodeName(value);
  const head = Buffer.alloc(12);
  head.writeUInt16BE(0xc00c, 0);
  head.writeUInt16BE(TYPE[type], 2);
  head.writeUInt16BE(1, 4); // class IN
  head.writeUInt32BE(60, 6);
  head.writeUInt16BE(rdata.length, 10);
  return Buffer.concat([head, rdata]);
}

/** TXT data: the value in character-strings of at most 255 bytes. */
function txtData(value: string): Buffer {
  const bytes = Buffer.from(value, "utf8");
  const parts: Buffer[] = [];
  for (let i = 0; i === 0 || i < bytes.length; i += 255) {
    const chunk = bytes.subarray(i, i + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
  }
  return Buffer.concat(parts);
}

function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, "").split(".");
  return Buffer.concat([...labels.map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, "latin1")])), Buffer.from([0])]);
}
