/**
 * "Are we under CI" for every test project (sdk, sandbox, examples, e2e) and
 * their global setups: under CI a missing prerequisite (BIND, Python, the
 * Cloudflare plugin, an old Node) fails the run, since a skipped file there
 * would claim behaviour nobody checked; elsewhere those files skip, saying why.
 */

/**
 * Whether `CI` holds one of the usual truthy forms: true, 1 or yes, in any
 * case. "false", "0", "no" and an empty or unset `CI` are not CI.
 *
 * @example
 * underCi({ CI: "1" }) // true
 * underCi({ CI: "false" }) // false
 */
export function underCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(true|1|yes)$/i.test(env.CI?.trim() ?? "");
}

/**
 * Whether a file or test should skip for a prerequisite that is missing
 * (`missing` says what and how to get it; undefined when it is there).
 * Outside CI: true, after saying why on stderr. Under CI: throws `missing`,
 * so the file fails instead of skipping.
 *
 * @example
 * describe.skipIf(skipWithout(archive ? undefined : "no prebuilt plugin"))("...", () => {});
 */
export function skipWithout(missing: string | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (missing === undefined) return false;
  if (underCi(env)) throw new Error(`${missing} (under CI a missing prerequisite fails the run instead of skipping)`);
  console.error(`SKIPPED: ${missing} (under CI this fails the run)`);
  return true;
}
