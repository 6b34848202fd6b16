/** `pulumi import` of a Certificate through the provider plugin: downloaded and verified as its `create` does. */
import { ImportError, type Imported } from "../../provider/handlers.js";
import type { ProviderContext } from "../../provider/context.js";
import { toPlainJson } from "../../provider/plain-json.js";
import { stateFromDownload, tryDownload } from "./download.js";
import { DEFAULT_TIMEOUT_MINUTES } from "./inputs.js";

/**
 * Imports a certificate by `<order number>/<certificate id>` (or the order
 * number alone: its earliest issued certificate), downloaded and verified
 * as a Certificate's `create` does. The id is the certificate id.
 *
 * @example
 * await importCertificate(ctx, "CERT202611250001/5f0c…") // { id: "5f0c…", inputs: { orderNo, certId }, outputs }
 */
export async function importCertificate(ctx: ProviderContext, importId: string): Promise<Imported> {
  const [orderNo, certId, ...rest] = importId.split("/");
  if (!orderNo || rest.length > 0 || certId === "") {
    throw new ImportError(`cannot import certificate ${JSON.stringify(importId)}: give "<order number>/<certificate id>" (or the order number alone, for its earliest issued certificate)`);
  }
  const target = { orderNo, ...(certId ? { certId } : {}), timeoutMinutes: DEFAULT_TIMEOUT_MINUTES };
  const attempt = await tryDownload(ctx.api(), target);
  if (!attempt.download) throw new ImportError(`cannot import certificate ${JSON.stringify(importId)}: not available (${attempt.notYet})`);
  const { outs } = stateFromDownload(target, attempt.download);
  return { id: outs.certId, outputs: toPlainJson(outs) as Record<string, unknown>, inputs: { orderNo, certId: outs.certId } };
}
