import * as os from "node:os";
import * as path from "node:path";
import { DNS_PROVIDER_VERSION, TOOL_VERSIONS, type TerraformToolName } from "./versions.js";

/**
 * `${CERTRESELLER_TERRAFORM_CACHE:-${XDG_CACHE_HOME:-~/.cache}/pulumi-certreseller/terraform}`:
 * per user, not per checkout, as the engine's cache is (scripts/engine/paths.ts).
 */
export function terraformCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CERTRESELLER_TERRAFORM_CACHE) return path.resolve(env.CERTRESELLER_TERRAFORM_CACHE);
  const cacheHome = env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(cacheHome, "pulumi-certreseller", "terraform");
}

/** `<cache>/tofu-v1.12.6/bin/tofu`, `<cache>/terraform-v1.13.3/bin/terraform`: one folder per tool and version. */
export function cachedToolPath(tool: TerraformToolName, root = terraformCacheRoot()): string {
  return path.join(root, `${tool}-v${TOOL_VERSIONS[tool]}`, "bin", tool);
}

/**
 * `<cache>/hashicorp-dns-v3.6.1/<key>/terraform-provider-dns_v3.6.1`: one
 * binary per content of the vendored source (`key`), so an edit to it builds
 * anew instead of reusing a binary of other source.
 */
export function cachedDnsProviderPath(key: string, root = terraformCacheRoot()): string {
  return path.join(root, `hashicorp-dns-v${DNS_PROVIDER_VERSION}`, key, `terraform-provider-dns_v${DNS_PROVIDER_VERSION}`);
}
