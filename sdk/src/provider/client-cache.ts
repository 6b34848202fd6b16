import { createHash } from "node:crypto";
import { PartnerClient } from "../client/partner-client.js";
import type { PartnerApi } from "../client/types.js";
import { InvalidSettingError, requireApiSettings, SETTING_SOURCES, type ProviderSettings } from "./config.js";

const clients = new Map<string, PartnerApi>();

/**
 * One client per (base URL, key, transport options) per process: a whole
 * `up` shares its connections, and a key rotation mid-process gets a fresh
 * client. The cache key holds a hash of the API key, never the key.
 *
 * The client refuses a plain `http://` base URL on a non-loopback host unless
 * `allowInsecureHttp` is set (`certreseller:allowInsecureHttp`).
 *
 * @example
 * ```ts
 * const api = clientFor({ apiKey, baseUrl: "https://partner.example.com", journalDir });
 * ```
 */
export function clientFor(settings: ProviderSettings): PartnerApi {
  const { apiKey, baseUrl } = requireApiSettings(settings);
  const allowInsecureHttp = settings.allowInsecureHttp === true;
  const cacheKey = `${baseUrl}\u0000${allowInsecureHttp}\u0000${createHash("sha256").update(apiKey).digest("hex")}`;
  let client = clients.get(cacheKey);
  if (!client) {
    client = construct(baseUrl, apiKey, allowInsecureHttp);
    clients.set(cacheKey, client);
  }
  return client;
}

function construct(baseUrl: string, apiKey: string, allowInsecureHttp: boolean): PartnerApi {
  try {
    return new PartnerClient({ baseUrl, apiKey, ...(allowInsecureHttp ? { allowInsecureHttp } : {}) });
  } catch (error) {
    // The client names its own option; a Pulumi user sets a config key instead.
    if (!allowInsecureHttp && /^http:/i.test(baseUrl.trim())) {
      const { config, env } = SETTING_SOURCES.allowInsecureHttp;
      throw new InvalidSettingError(
        "allowInsecureHttp",
        `certreseller: ${(error as Error).message}. To accept plain http anyway: \`pulumi config set ${config} true\` or ${env}=true`,
      );
    }
    if (!/\bbaseUrl\b/.test((error as Error).message)) throw error;
    const { config, env } = SETTING_SOURCES.baseUrl;
    throw new InvalidSettingError("baseUrl", `certreseller: ${config} / ${env}: ${(error as Error).message}`);
  }
}

/** Closes and forgets every cached client (tests; a provider process just exits). */
export async function closeClients(): Promise<void> {
  const open = [...clients.values()];
  clients.clear();
  await Promise.all(open.map((client) => client.close()));
}
