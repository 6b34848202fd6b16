/**
 * The one place the engine version is pinned.
 *
 * v3.259.0 is the newest `github.com/pulumi/pulumi/pkg/v3` the Go module proxy
 * serves to these machines (later versions answer 403). A CLI found on PATH is
 * accepted from this version on.
 */
export const PULUMI_VERSION = "3.259.0";

/** The lowest `pulumi version` accepted from PATH or `PULUMI_BINARY`. */
export const MINIMUM_PULUMI_VERSION = PULUMI_VERSION;

/**
 * The last SDK module that still contains the Node language host
 * (`sdk/nodejs/cmd/pulumi-language-nodejs`); its own module is not served here.
 * Needed only for directory programs (`pulumi up` in a folder).
 */
export const LANGUAGE_HOST_SDK_VERSION = "3.68.0";

/**
 * The Pulumi YAML language host (`github.com/pulumi/pulumi-yaml`, its own
 * module and release line), for YAML directory programs. It requires
 * `pkg/v3` v3.206.0, which the proxy serves.
 */
export const YAML_LANGUAGE_HOST_VERSION = "1.25.0";

/** `3.259.0` from `v3.259.0\n`; undefined when the text is no version. */
export function parseVersion(text: string): [number, number, number] | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

export function isAtLeast(version: [number, number, number], minimum: string): boolean {
  const min = parseVersion(minimum)!;
  for (let i = 0; i < 3; i++) {
    if (version[i] !== min[i]) return version[i]! > min[i]!;
  }
  return true;
}
