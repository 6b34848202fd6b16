import * as pulumi from "@pulumi/pulumi";
// Program-side guard loaded by every resource class: keeps secret outputs out
// of the runtime's debug lines (see the module for why).
import "./secret-debug-redaction.js";
// ...and keeps an Automation API process from handing a run a dead engine
// connection, which silently drops resources (see the module).
import "./runtime-channels.js";

let warned = false;

/**
 * Program-side check, run once per program by each resource constructor: an
 * API key set in stack config WITHOUT `--secret` is stored in plaintext in
 * the state (the engine copies every config key into the default provider's
 * inputs). `isConfigSecret` exists at run time but is internal, hence the
 * guarded lookup.
 */
export function warnIfApiKeyNotSecret(): void {
  if (warned) return;
  warned = true;
  const apiKey = new pulumi.Config("certreseller").get("apiKey");
  if (apiKey === undefined) return;
  const isConfigSecret = (pulumi.runtime as { isConfigSecret?: (key: string) => boolean }).isConfigSecret;
  if (typeof isConfigSecret === "function" && !isConfigSecret("certreseller:apiKey")) {
    void pulumi.log.warn(
      "certreseller:apiKey is set in stack config as PLAINTEXT: the engine writes every config value into the " +
        "state file, so your API key is stored there unencrypted. Fix it with " +
        "`pulumi config set --secret certreseller:apiKey <key>` (or use the CERTRESELLER_API_KEY environment variable instead).",
    );
  }
}

/** Lets tests observe the warning again. */
export function resetApiKeyWarningForTests(): void {
  warned = false;
}
