import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "../envelope.js";
import { cloudflareRoutes } from "../../cloudflare/index.js";
import { accountRoutes } from "./accounts.js";
import { orderRoutes } from "./orders.js";
import { publishedRecordRoutes } from "./published-records.js";
import { HttpError, Route, type ManagementDeps, type Reply } from "./route.js";
import { runtimeRoutes } from "./runtime.js";

export type { ManagementDeps } from "./route.js";
export { renderAccount } from "./render.js";

const ROUTES = [accountRoutes, publishedRecordRoutes, cloudflareRoutes, orderRoutes, runtimeRoutes];

/** Serves the management API under `/management` (JSON in and out, plain HTTP statuses, `{ error }` on failure). */
export async function handleManagement(deps: ManagementDeps, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  try {
    const route = new Route(req, path);
    let answer: Reply | undefined;
    for (const routes of ROUTES) if ((answer = await routes(deps, route)) !== undefined) break;
    if (answer === undefined) throw new HttpError(404, `no management route ${route.method} /management${path}`);
    // Answer only once the change is on disk (no-op in memory).
    await deps.ctx.store.flush();
    if ("pem" in answer) {
      res.writeHead(200, { "content-type": "application/x-pem-file", "content-length": Buffer.byteLength(answer.pem) });
      res.end(answer.pem);
    } else {
      sendJson(res, answer.status, answer.body);
    }
  } catch (err) {
    if (err instanceof HttpError) return sendJson(res, err.status, { error: err.message });
    // The fault table's parser reports bad input as TypeError.
    if (err instanceof TypeError) return sendJson(res, 400, { error: err.message });
    sendJson(res, 500, { error: (err as Error).message });
  }
}
