import { HttpError, reply, type ManagementDeps, type Reply, type Route } from "../web/management/route.js";
import { renderRecord } from "./api.js";

/**
 * `/management/cloudflare/…`: the Cloudflare stand-in's zones (with their
 * tokens, as `/accounts` shows API keys), its records and the requests it
 * answered.
 */
export async function cloudflareRoutes({ ctx: { cloudflare } }: ManagementDeps, r: Route): Promise<Reply | undefined> {
  if (r.seg[0] !== "cloudflare") return undefined;
  if (r.is("GET", "cloudflare", "zones")) {
    return reply(cloudflare.dns.zones().map((z) => ({ ...z, records: cloudflare.dns.list(z).map(renderRecord) })));
  }
  if (r.is("POST", "cloudflare", "zones")) {
    const body = await r.body();
    const field = (name: string): string | undefined => {
      const v = body[name];
      if (v === undefined) return undefined;
      if (typeof v !== "string") throw new HttpError(400, `${name} must be a string`);
      return v;
    };
    const name = field("name");
    if (name === undefined) throw new HttpError(400, "name is required (the zone's domain, e.g. example.com)");
    const id = field("id");
    const token = field("token");
    try {
      return reply(cloudflare.dns.addZone({ name, ...(id === undefined ? {} : { id }), ...(token === undefined ? {} : { token }) }), 201);
    } catch (err) {
      if (err instanceof RangeError) throw new HttpError(400, err.message);
      throw err;
    }
  }
  if (r.is("GET", "cloudflare", "requests")) return reply(cloudflare.log.list());
  if (r.is("DELETE", "cloudflare", "requests")) {
    cloudflare.log.clear();
    return reply({ deleted: "all" });
  }
  return undefined;
}
