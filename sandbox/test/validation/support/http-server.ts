import http, { type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";

export interface TestSite {
  /** `127.0.0.1:<port>`, for `hostOverrides`. */
  address: string;
  /** Host headers of the requests received, in order. */
  hosts: string[];
  /** Path → response: a body (200), or a status with an optional Location/body, or "hang". */
  routes: Map<string, string | { status: number; location?: string; body?: string } | "hang">;
  stop(): Promise<void>;
}

/** A real HTTP (or HTTPS, given a key and certificate) server on loopback. */
export async function startSite(tls?: { key: string; cert: string }): Promise<TestSite> {
  const routes: TestSite["routes"] = new Map();
  const hosts: string[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    hosts.push(req.headers.host ?? "");
    const route = routes.get(req.url ?? "");
    if (route === "hang") return; // never answers: exercises the timeout
    if (route === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    } else if (typeof route === "string") {
      res.writeHead(200, { "content-type": "text/plain" }).end(route);
    } else {
      res.writeHead(route.status, route.location !== undefined ? { location: route.location } : {}).end(route.body ?? "");
    }
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    hosts,
    routes,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
