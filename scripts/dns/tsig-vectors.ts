// `npx tsx scripts/dns/tsig-vectors.ts > sdk/test/dns/fixtures/bind-tsig-vectors.json`:
// TSIG-signed messages made by BIND itself, for the sdk's unit tests (which
// must run without BIND). nsupdate signs UPDATEs and named signs its answers;
// a UDP relay between them records every message as hex. The key is a test
// key made up for these vectors: it guards nothing.
import { execFile, execFileSync } from "node:child_process";
import * as dgram from "node:dgram";
import { startBind } from "./bind.js";

const KEY = { name: "vector-key.", algorithm: "hmac-sha256", secret: Buffer.from("certreseller tsig test vector key").toString("base64") };
const WRONG_SECRET = Buffer.from("not the secret the server holds!").toString("base64");

interface Exchange {
  request: string;
  response: string;
}

/** A relay on a free port that passes each datagram to named and records both directions. */
async function relay(bindPort: number): Promise<{ port: number; exchanges: Exchange[]; close(): void }> {
  const exchanges: Exchange[] = [];
  const front = dgram.createSocket("udp4");
  front.on("message", (request, client) => {
    const back = dgram.createSocket("udp4");
    back.on("message", (response) => {
      exchanges.push({ request: request.toString("hex"), response: response.toString("hex") });
      front.send(response, client.port, client.address);
      back.close();
    });
    back.send(request, bindPort, "127.0.0.1");
  });
  await new Promise<void>((resolve) => front.bind(0, "127.0.0.1", resolve));
  return { port: front.address().port, exchanges, close: () => front.close() };
}

/** Runs nsupdate without blocking: the relay in this process must keep forwarding meanwhile. */
function nsupdate(port: number, secret: string, commands: string[]): Promise<void> {
  const script = [`server 127.0.0.1 ${port}`, "zone e2e.test", ...commands, "send", ""].join("\n");
  return new Promise((resolve) => {
    // The wrong-secret run fails on purpose; its exchange is recorded all the same.
    const child = execFile("nsupdate", ["-y", `${KEY.algorithm}:${KEY.name}:${secret}`], () => resolve());
    child.stdin!.end(script);
  });
}

async function main(): Promise<void> {
  const bind = await startBind({ zones: ["e2e.test."], keys: [KEY] });
  const proxy = await relay(bind.port);
  try {
    await nsupdate(proxy.port, KEY.secret, ['update add _dnsauth.vector.e2e.test. 60 TXT "vector-token"']);
    await nsupdate(proxy.port, KEY.secret, ['update delete _dnsauth.vector.e2e.test. TXT "vector-token"', 'update add _dnsauth.vector.e2e.test. 60 TXT "vector-token-2"']);
    await nsupdate(proxy.port, WRONG_SECRET, ['update add _dnsauth.vector.e2e.test. 60 TXT "never"']);
  } finally {
    proxy.close();
    await bind.stop();
  }
  const [add, replace, badsig] = proxy.exchanges;
  const vectors = {
    about: "TSIG vectors recorded from BIND 9 (nsupdate requests, named answers) by scripts/dns/tsig-vectors.ts. The key is a made-up test key.",
    bindVersion: execFileSync("named", ["-v"]).toString().trim(),
    key: KEY,
    wrongSecret: WRONG_SECRET,
    add,
    replace,
    badsig,
  };
  process.stdout.write(`${JSON.stringify(vectors, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
