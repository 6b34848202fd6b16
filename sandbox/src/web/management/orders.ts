import { refund } from "../../service/cancel-order.js";
import { currentCert, issueCertificate, refreshOrder } from "../../service/lifecycle.js";
import { makeRecords } from "../../service/records.js";
import { newSignRequestId } from "../../util/ids.js";
import { renderOrder } from "./render.js";
import { HttpError, reply, type ManagementDeps, type Reply, type Route } from "./route.js";

/** `/orders`: the books, and forcing a certificate's fate (issue, fail, revoke) or settling an audit refund. */
export async function orderRoutes({ ctx }: ManagementDeps, r: Route): Promise<Reply | undefined> {
  const { store, clock } = ctx;
  if (r.is("GET", "orders")) {
    for (const o of store.orders.values()) await refreshOrder(ctx, o);
    return reply([...store.orders.values()].map((o) => renderOrder(ctx, o)));
  }
  if (r.seg[0] !== "orders" || r.seg.length < 2) return undefined;
  const order = store.orders.get(r.seg[1]!);
  if (order === undefined) throw new HttpError(404, `no order ${r.seg[1]}`);
  if (r.is("GET", "orders", null)) {
    await refreshOrder(ctx, order);
    return reply(renderOrder(ctx, order));
  }
  const cert = currentCert(order);
  if (r.is("POST", "orders", null, "issue")) {
    if (![0, 2, 3].includes(cert.status)) throw new HttpError(409, `cannot force issue from cert_status ${cert.status}`);
    if (cert.requestId === null) {
      cert.requestId = newSignRequestId(clock.now());
      cert.submittedAt = clock.nowMs();
      cert.records = makeRecords(order, cert.verificationMethod);
    }
    await issueCertificate(ctx, order, cert);
    return reply(renderOrder(ctx, order));
  }
  if (r.is("POST", "orders", null, "fail")) {
    if (![0, 2].includes(cert.status)) throw new HttpError(409, `cannot force failure from cert_status ${cert.status}`);
    cert.status = 3;
    cert.caStatus = 3;
    cert.caStatusText = "issuance failed (forced by the management API)";
    store.markOrder(order);
    return reply(renderOrder(ctx, order));
  }
  if (r.is("POST", "orders", null, "revoke")) {
    if (cert.status !== 1) throw new HttpError(409, `cannot revoke from cert_status ${cert.status}; only an issued certificate`);
    cert.status = 5;
    cert.caStatusText = "revoked (forced by the management API)";
    store.markOrder(order);
    return reply(renderOrder(ctx, order));
  }
  if (r.is("POST", "orders", null, "approve-refund")) {
    if (order.refund === null || order.refund.status !== 0) throw new HttpError(409, "the order has no pending refund request");
    refund(ctx, store.accounts.get(order.accountId)!, order);
    store.markOrder(order);
    return reply(renderOrder(ctx, order));
  }
  return undefined;
}
