// Terraform and OpenTofu for the e2e suite and users: `ensureTerraformTools()`
// finds or builds both CLIs, `packTerraformMirror()` packs the provider as a
// filesystem mirror with the CLI config that installs it, `ensureDnsProvider()`
// and `packDnsMirror()` do the same for hashicorp/dns from its vendored source.
export { ensureTerraformTools, TerraformToolUnavailableError, TOOLS_INSTALL_INSTRUCTIONS, type TerraformTool, type TerraformTools, type TerraformToolSource } from "./provision.js";
export { packTerraformMirror, mirrorCliConfig, MIRROR_TARGET, PROVIDER_HOST, PROVIDER_NAMESPACE, PROVIDER_SOURCE, PROVIDER_TYPE, type ExtraMirror, type PackedMirror } from "./pack.js";
export { isolatedProgram, type IsolatedProgram } from "./isolated.js";
export { DNS_PROVIDER_SOURCE_DIR, DNS_PROVIDER_SOURCES, DnsProviderUnavailableError, dnsProviderSourceKey, ensureDnsProvider, packDnsMirror, type DnsMirror, type DnsProvider } from "./dns-provider.js";
export { cachedDnsProviderPath, cachedToolPath, terraformCacheRoot } from "./paths.js";
export { DNS_PROVIDER_VERSION, OPENTOFU_VERSION, TERRAFORM_VERSION, TOOL_NAMES, TOOL_VERSIONS, type TerraformToolName } from "./versions.js";
