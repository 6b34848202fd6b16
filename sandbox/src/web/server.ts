import { createServer, type Server } from "node:http";
import type { Socket } from "node:net";
import { handleManagement, type ManagementDeps } from "./management/index.js";
import { handleCloudflare, isCloudflarePath } from "../cloudflare/index.js";
import { handlePartner, isPartnerPath } from "./partner.js";
import { sendJson } from "./envelope.js";

/**
 * The HTTP front end: `/partner/*` speaks the Partner API, `/management/*`
 * the sandbox's own JSON API, `/client/v4/*` Cloudflare's DNS records API. Sockets are tracked so `close()` ends
 * keep-alive connections at once instead of waiting for their timeout.
 */
export function createSandboxServer(deps: ManagementDeps): { server: Server; close(): Promise<void> } {
  const sockets = new Set<Socket>();
  const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    const pathname = new URL(req.url ?? "/", "http://sandbox").pathname;
    const done = (p: Promise<void>): void => {
      p.catch((err: unknown) => {
        process.stderr.write(`[certreseller-sandbox] unhandled: ${(err as Error).stack ?? String(err)}\n`);
        if (!res.headersSent) sendJson(res, 500, { error: "internal error" });
        else res.destroy();
      });
    };
    if (isPartnerPath(pathname)) return done(handlePartner(deps, req, res, pathname));
    if (isCloudflarePath(pathname)) {
      const { cloudflare, clock } = deps.ctx;
      return done(handleCloudflare(cloudflare.dns, cloudflare.log, () => new Date(clock.nowMs()), req, res, pathname));
    }
    if (pathname === "/management" || pathname.startsWith("/management/")) {
      return done(handleManagement(deps, req, res, pathname.slice("/management".length)));
    }
    req.resume();
    // Outside /partner/ the web server answers, not the API: a plain page, as
    // a real front end would. An API envelope here would let a wrong base URL
    // pass for the API saying "no such order".
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    res.end(`404 Not Found: ${pathname} (the Partner API is under /partner/<Operation>/)\n`);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  return {
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        for (const s of sockets) s.destroy();
      }),
  };
}
