import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { ApiError, forbidden, methodNotAllowed, notFound, unauthorized } from "../errors.js";
import type { FaultRegistry } from "../faults/faults.js";
import type { ServiceContext } from "../service/context.js";
import { isOperationName, OPERATIONS, type OperationName } from "../service/operations.js";
import type { AccountRecord } from "../store/types.js";
import { newRequestId } from "../util/ids.js";
import { parseBody, readRaw } from "./body.js";
import { sendJson, type Envelope } from "./envelope.js";
import type { RequestLog } from "./request-log.js";

const PATH = /^\/partner\/([A-Za-z]+)(?:\/|\/index\.php)?$/;

/** Spec 1: `message` "varies by operation and outcome"; clients must not parse it. */
const SUCCESS_MESSAGE: Record<OperationName, string> = {
  GetUserData: "account data", GetUserProduct: "product list", CreateOrder: "order created", ApplySign: "submitted for issuance",
  GetRecord: "validation records", ChangeVertificationMethod: "verification method changed", CancelOrder: "order cancelled",
  GetCertificateStatus: "order status", DownloadCertificate: "certificate",
};

export interface PartnerDeps {
  ctx: ServiceContext;
  faults: FaultRegistry;
  log: RequestLog;
}

export function isPartnerPath(pathname: string): boolean {
  return pathname.startsWith("/partner/");
}

function headerKey(req: IncomingMessage): string | undefined {
  const x = req.headers["x-api-key"];
  if (typeof x === "string" && x.trim() !== "") return x.trim();
  const auth = req.headers.authorization;
  const m = auth === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(auth);
  return m?.[1];
}

/** Finds the caller's account from `apikey`, `X-API-Key` or a Bearer token; 401/403 as the service answers. */
function authenticate(ctx: ServiceContext, req: IncomingMessage, body: Record<string, unknown>): AccountRecord {
  // Own fields only: an inherited `apikey` is never a caller's credential.
  const given = Object.hasOwn(body, "apikey") ? body.apikey : undefined;
  const fromBody = typeof given === "string" && given.trim() !== "" ? given.trim() : undefined;
  const key = fromBody ?? headerKey(req);
  if (key === undefined) throw unauthorized("apikey is required (form/JSON field apikey, header X-API-Key, or Authorization: Bearer)");
  const account = ctx.store.findAccountByKey(key);
  if (account === undefined) throw unauthorized("invalid API key");
  if (account.status === 0) throw forbidden("account is banned");
  if (account.keyStatus !== 1) throw forbidden("API key is disabled");
  if (account.keyExpiresAt !== null && Date.parse(account.keyExpiresAt) <= ctx.clock.nowMs()) throw forbidden("API key has expired");
  return account;
}

function clientIp(req: IncomingMessage): string {
  const addr = req.socket.remoteAddress ?? "unknown";
  return addr.startsWith("::ffff:") ? addr.slice(7) : addr;
}

/** Serves `/partner/<Name>/`: envelope, authentication, faults, the operation, the log line. */
export async function handlePartner(deps: PartnerDeps, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const { ctx, faults, log } = deps;
  const started = performance.now();
  const requestId = newRequestId();
  const match = PATH.exec(pathname);
  const opName = match?.[1] ?? pathname;
  let appId: string | null = null;
  let orderNo: string | null = null;
  let faultNote: string | null = null;

  const finish = (code: number, message: string, data: Record<string, unknown>, forceHttp?: number): void => {
    const httpStatus = forceHttp ?? (ctx.config.mirrorStatus ? code : 200);
    const envelope: Envelope = { code, message, data };
    sendJson(res, httpStatus, envelope, { "x-request-id": requestId, ...(code === 405 ? { allow: "POST" } : {}) });
    record(code, httpStatus);
  };
  const record = (code: number, httpStatus: number): void => {
    log.add({
      at: new Date(ctx.clock.nowMs()).toISOString(), requestId, operation: opName, appId, orderNo, code, httpStatus,
      durationMs: Math.round((performance.now() - started) * 10) / 10, fault: faultNote,
    });
  };
  const drop = (): void => {
    record(0, 0);
    req.socket.destroy();
  };

  try {
    if (match === null || !isOperationName(match[1]!)) {
      throw notFound(undefined, `no such operation ${JSON.stringify(opName)}; operations: ${Object.keys(OPERATIONS).join(", ")}`);
    }
    const op: OperationName = match[1];
    if (req.method !== "POST") {
      req.resume();
      throw methodNotAllowed(`${req.method ?? "?"} is not allowed; partner operations take POST`);
    }
    const body = parseBody(await readRaw(req), req.headers["content-type"]);
    const account = authenticate(ctx, req, body);
    delete body.apikey;
    appId = account.appId;
    if (typeof body.order_no === "string") orderNo = body.order_no;
    account.lastUsedIp = clientIp(req);
    account.lastUsedAt = ctx.clock.nowMs();

    const fault = faults.decide(op);
    if (fault.latencyMs > 0) await sleep(fault.latencyMs);
    if (fault.before === "reset") {
      faultNote = "reset";
      return drop();
    }
    if (fault.before === "malformed") {
      faultNote = "malformed";
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", "x-request-id": requestId });
      res.end('{"code":200,"message":"ok","data":{"order_no":');
      return record(200, 200);
    }
    if (fault.before !== undefined) {
      faultNote = `error ${fault.before.errorCode}`;
      const code = fault.before.errorCode;
      const data = code === 429 ? { retry_after: 1 } : {};
      return finish(code, `injected fault: ${op} answers ${code}`, data, code >= 500 ? code : undefined);
    }

    const data = await OPERATIONS[op](ctx, { account, body });
    // Group commit: the answer waits until the change is durable (no-op in memory).
    await ctx.store.flush();
    if (typeof data.order_no === "string") orderNo = data.order_no;
    if (fault.after === "drop") {
      faultNote = "commit-then-drop";
      return drop();
    }
    if (fault.after === "500") {
      faultNote = "commit-then-500";
      return finish(500, "internal server error (injected after the operation took effect)", {}, 500);
    }
    finish(200, SUCCESS_MESSAGE[op], data);
  } catch (err) {
    if (err instanceof ApiError) {
      await ctx.store.flush();
      return finish(err.code, err.message, err.envelopeData());
    }
    process.stderr.write(`[certreseller-sandbox] ${requestId} ${opName} internal error: ${(err as Error).stack ?? String(err)}\n`);
    finish(500, `internal server error: ${(err as Error).message}`, {});
  }
}
