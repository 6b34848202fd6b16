import { createHash } from "node:crypto";
import { PartnerClient } from "../client/partner-client.js";
import type { PartnerApi } from "../client/types.js";
import { requireApiSettings, type ProviderSettings } from "./config.js";

const clients = new Map<string, PartnerApi>();

/**
 * One client per (base URL, key) per process: a whole `up` shares its
 * connections, and a key rotation mid-process gets a fresh client. The cache
 * key holds a hash of the API key, never the key.
 */
export function clientFor(settings: ProviderSettings): PartnerApi {
  const { apiKey, baseUrl } = requireApiSettings(settings);
  const cacheKey = `${baseUrl}\u0000${createHash("sha256").update(apiKey).digest("hex")}`;
  let client = clients.get(cacheKey);
  if (!client) {
    client = new PartnerClient({ baseUrl, apiKey });
    clients.set(cacheKey, client);
  }
  return client;
}

/** Closes and forgets every cached client (tests; a provider process just exits). */
export async function closeClients(): Promise<void> {
  const open = [...clients.values()];
  clients.clear();
  await Promise.all(open.map((client) => client.close()));
}
