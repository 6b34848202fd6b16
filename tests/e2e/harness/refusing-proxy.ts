import * as http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A reverse proxy in front of the sandbox that answers one CreateOrder with
 * the API's own refusal naming an existing order (code 400 under HTTP 200,
 * `data.order_no`), as a service that refuses a duplicate purchase ("already
 * ordered: CERT…") would; everything else is passed through unchanged.
 *
 * @example
 * const proxy = await startRefusingProxy(sandbox.url); proxy.refuseNextCreate("CERT1"); // proxy.url as certreseller:baseUrl
 */
export async function startRefusingProxy(target: string): Promise<{ url: string; refuseNextCreate(orderNo: string): void; refused: number; stop(): Promise<void> }> {
  let naming: string | undefined;
  const state = { refused: 0 };
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (naming && /\/partner\/CreateOrder\/?$/.test(new URL(req.url ?? "/", "http://x").pathname)) {
        const orderNo = naming;
        naming = undefined;
        state.refused += 1;
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ code: 400, message: `already ordered: ${orderNo}`, data: { order_no: orderNo } }));
        return;
      }
      const forward = http.request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => res.writeHead(502).end());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refuseNextCreate: (orderNo) => void (naming = orderNo),
    get refused() {
      return state.refused;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
