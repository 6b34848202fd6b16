/**
 * The string the engine sends, during preview, in place of any input whose
 * value is not known yet — whatever the input's declared type (see
 * docs/pulumi-dynamic-providers.md, "The provider contract"). `check` and
 * `diff` must treat it as "cannot judge yet", never as a bad value.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when `value` is the engine's preview placeholder. */
export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/** True when `value` is, or contains at any depth, the preview placeholder. */
export function containsUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") {
    return Object.values(value).some(containsUnknown);
  }
  return false;
}
