/**
 * Certificate provider (loaded lazily by the provider text; see
 * program/provider-text.ts). Path `resources/certificate/handlers.js` is
 * stored in state: keep it.
 */
import type { ResourceHandlers } from "../../provider/handlers.js";
import { systemClock } from "../shared/clock.js";
import { processStatusGate } from "../shared/process-status-gate.js";
import { check } from "./check.js";
import { create, type CreateDeps } from "./create.js";
import { remove } from "./delete.js";
import { diff } from "./diff.js";
import { importCertificate } from "./import.js";
import type { CertificateInputs } from "./inputs.js";
import { read } from "./read.js";
import type { CertificateState } from "./state.js";
import { update } from "./update.js";

export const resourceType = "Certificate";

/** Handlers with an injectable clock, gate and DNS (tests); {@link handlers} uses the real ones. */
export function createCertificateHandlers(deps: CreateDeps): ResourceHandlers<CertificateInputs, CertificateState> {
  return {
    check,
    diff,
    create: (ctx, inputs) => create(deps, ctx, inputs),
    update: (ctx, id, olds, news) => update(deps, ctx, id, olds, news),
    read: (ctx, id, props) => read(deps, ctx, id, props),
    delete: remove,
    import: (ctx, id) => importCertificate(ctx, id),
  };
}

export const handlers = createCertificateHandlers({ clock: systemClock, gate: processStatusGate });
