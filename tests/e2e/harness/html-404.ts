import * as http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A reverse proxy in front of nothing: an HTML 404 page for every path, as a
 * misrouted base URL answers. Such a page proves nothing about an order.
 *
 * @example
 * const proxy = await startHtml404(); // proxy.url as certreseller:baseUrl; proxy.hits lists the paths asked
 */
export async function startHtml404(): Promise<{ url: string; hits: string[]; stop(): Promise<void> }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    req.resume();
    req.on("end", () => {
      res.writeHead(404, { "content-type": "text/html" }).end("<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><hr>nginx</body></html>");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hits, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
