// The check a cancelled call makes (server.ts): only an engine that no
// longer accepts connections is unreachable; a live one is not, even without
// the health service, and without an engine address nothing is concluded.
import { describe, expect, it } from "vitest";
import { engineUnreachable } from "../../src/plugin/engine-watch.js";
import { grpc } from "../../src/plugin/protocol.js";

describe("engineUnreachable", () => {
  it("is false while a server listens at the address, true once it stopped, false with no address", async () => {
    const server = new grpc.Server();
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    const address = `127.0.0.1:${port}`;
    expect(await engineUnreachable(address)).toBe(false);
    server.forceShutdown();
    expect(await engineUnreachable(address)).toBe(true);
    expect(await engineUnreachable(undefined)).toBe(false);
  });
});
