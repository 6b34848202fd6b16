import { afterAll, afterEach, beforeAll } from "vitest";
import { PartnerClient, type PartnerClientOptions } from "../../../src/client/index.js";
import { ScriptedServer } from "./scripted-server.js";

/**
 * One scripted server per test file and clients against it: registers the
 * file's hooks (start; after each test reset the script and close the
 * clients; stop). Call at the top level of a test file.
 */
export function useScriptedClients(apiKey: string, defaults: Partial<PartnerClientOptions>) {
  let server: ScriptedServer | undefined;
  const clients: PartnerClient[] = [];
  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  afterEach(async () => {
    server?.reset();
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(() => server?.close());
  return {
    get server(): ScriptedServer {
      if (!server) throw new Error("the scripted server starts in beforeAll");
      return server;
    },
    /** A client of this file's server, closed after the test. */
    client(options: Partial<PartnerClientOptions> = {}): PartnerClient {
      const c = new PartnerClient({ baseUrl: this.server.url, apiKey, ...defaults, ...options });
      clients.push(c);
      return c;
    },
  };
}
