import type * as pulumi from "@pulumi/pulumi";
import { durationMinutes } from "../../program/resource-options.js";

/** The wait a Certificate uses, and where it came from when not `timeoutMinutes`. */
export interface ResolvedTimeout {
  timeoutMinutes: pulumi.Input<number> | undefined;
  timeoutOrigin: string | undefined;
}

/**
 * Turns `customTimeouts` into the Certificate's wait, at construction: the
 * dynamic-provider host does not pass `customTimeouts` to `create`, so it
 * has to travel as an input (docs/pulumi-dynamic-providers.md).
 *
 * The Certificate waits only while it is created (a new order replaces it,
 * which is a create too); its in-place updates never wait. So `create` is the
 * deadline, and `update` serves as the deadline when `create` is absent —
 * a user who wrote only `update` means the wait after changing the order.
 * `delete` has nothing to wait for. Given together with a different
 * `timeoutMinutes`, construction fails naming both rather than pick one.
 *
 * @example
 * ```ts
 * resolveTimeout("site", undefined, { create: "1h30m" }); // { timeoutMinutes: 90, timeoutOrigin: 'customTimeouts.create "1h30m"' }
 * ```
 */
export function resolveTimeout(
  name: string,
  timeoutMinutes: pulumi.Input<number> | undefined,
  customTimeouts: pulumi.CustomTimeouts | undefined,
): ResolvedTimeout {
  const key = customTimeouts?.create ? "create" : customTimeouts?.update ? "update" : undefined;
  if (!key) return { timeoutMinutes, timeoutOrigin: undefined };
  const text = customTimeouts![key]!;
  const origin = `customTimeouts.${key} ${JSON.stringify(text)}`;
  const minutes = durationMinutes(text, `Certificate "${name}": ${origin}`);
  if (minutes <= 0) throw new Error(`Certificate "${name}": ${origin} must be longer than zero`);
  if (timeoutMinutes !== undefined) {
    if (typeof timeoutMinutes !== "number") {
      throw new Error(`Certificate "${name}": both timeoutMinutes (not a plain number, so it cannot be compared) and ${origin} are given; give one of them`);
    }
    if (timeoutMinutes !== minutes) {
      throw new Error(`Certificate "${name}": timeoutMinutes ${timeoutMinutes} and ${origin} (${minutes} min) disagree; give one of them`);
    }
  }
  return { timeoutMinutes: minutes, timeoutOrigin: origin };
}
