// A stand-in for Cloudflare's DNS records API (v4), served beside the Partner API.
import { CloudflareRequestLog } from "./api.js";
import { CloudflareDns, type ZoneSeed } from "./dns.js";

export { CLOUDFLARE_API_PREFIX, handleCloudflare, isCloudflarePath, type CloudflareRequestEntry } from "./api.js";
export { CloudflareDns, CloudflareError, type CloudflareRecord, type CloudflareZone, type ZoneSeed } from "./dns.js";
export { cloudflareRoutes } from "./management.js";

/** What the sandbox keeps for the Cloudflare API: zones and records, and the requests answered. */
export interface CloudflareStandIn {
  dns: CloudflareDns;
  log: CloudflareRequestLog;
}

export function createCloudflareStandIn(dataDir: string | undefined, zones: ZoneSeed[] = []): CloudflareStandIn {
  return { dns: new CloudflareDns(dataDir, zones), log: new CloudflareRequestLog() };
}
