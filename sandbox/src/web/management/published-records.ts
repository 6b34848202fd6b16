import { publishedDnsRecords } from "../../service/context.js";
import { HttpError, reply, stringField, type ManagementDeps, type Reply, type Route } from "./route.js";

/**
 * `/dns-records` and `/files`: what a DNS provider or web server would serve,
 * for `--validation published` (like pebble-challtestsrv). DELETE without a
 * body clears all posted here; GET also lists the records created through
 * the Cloudflare API, which only that API deletes.
 */
export async function publishedRecordRoutes({ ctx }: ManagementDeps, r: Route): Promise<Reply | undefined> {
  const { store } = ctx;
  if (r.seg.length !== 1) return undefined;
  if (r.seg[0] === "dns-records") {
    if (r.method === "GET") return reply(publishedDnsRecords(ctx));
    const body = await r.body();
    if (r.method === "DELETE" && Object.keys(body).length === 0) {
      store.dnsRecords = [];
      store.markMeta();
      return reply({ deleted: "all" });
    }
    const fqdn = stringField(body, "fqdn").toLowerCase().replace(/\.$/, "");
    const type = stringField(body, "type").toUpperCase();
    if (type !== "TXT" && type !== "CNAME") throw new HttpError(400, "type must be TXT or CNAME");
    const value = stringField(body, "value");
    const same = (x: { fqdn: string; type: string; value: string }): boolean => x.fqdn === fqdn && x.type === type && x.value === value;
    if (r.method === "POST") {
      if (!store.dnsRecords.some(same)) store.dnsRecords.push({ fqdn, type, value });
      store.markMeta();
      return reply({ fqdn, type, value }, 201);
    }
    if (r.method === "DELETE") {
      const before = store.dnsRecords.length;
      store.dnsRecords = store.dnsRecords.filter((x) => !same(x));
      store.markMeta();
      return reply({ deleted: before - store.dnsRecords.length });
    }
  }
  if (r.seg[0] === "files") {
    if (r.method === "GET") return reply(store.files);
    const body = await r.body();
    if (r.method === "DELETE" && Object.keys(body).length === 0) {
      store.files = [];
      store.markMeta();
      return reply({ deleted: "all" });
    }
    const url = stringField(body, "url");
    if (r.method === "POST") {
      if (typeof body.content !== "string") throw new HttpError(400, "content is required (a string)");
      store.files = store.files.filter((f) => f.url !== url);
      store.files.push({ url, content: body.content });
      store.markMeta();
      return reply({ url, content: body.content }, 201);
    }
    if (r.method === "DELETE") {
      const before = store.files.length;
      store.files = store.files.filter((f) => f.url !== url);
      store.markMeta();
      return reply({ deleted: before - store.files.length });
    }
  }
  return undefined;
}
