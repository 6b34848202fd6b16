import * as pulumi from "@pulumi/pulumi";
import type { PartnerApi } from "../client/types.js";
import { clientFor } from "../provider/client-cache.js";
import { readSettings } from "../provider/config.js";

/**
 * Functions run in the program process, where stack config is readable
 * (unlike inside a provider). Raw `runtime.getConfig` rather than
 * `Config.get`: the key is usually a secret, and reading it here only hands
 * it to the client; it is never returned.
 */
export function programClient(): PartnerApi {
  const settings = readSettings({ get: (key) => pulumi.runtime.getConfig(key) });
  return clientFor(settings);
}
