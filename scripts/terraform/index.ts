// Terraform and OpenTofu for the e2e suite and users: `ensureTerraformTools()`
// finds or builds both CLIs, `packTerraformMirror()` packs the provider as a
// filesystem mirror with the CLI config that installs it.
export { ensureTerraformTools, TerraformToolUnavailableError, TOOLS_INSTALL_INSTRUCTIONS, type TerraformTool, type TerraformTools, type TerraformToolSource } from "./provision.js";
export { packTerraformMirror, mirrorCliConfig, MIRROR_TARGET, PROVIDER_HOST, PROVIDER_NAMESPACE, PROVIDER_SOURCE, PROVIDER_TYPE, type PackedMirror } from "./pack.js";
export { cachedToolPath, terraformCacheRoot } from "./paths.js";
export { OPENTOFU_VERSION, TERRAFORM_VERSION, TOOL_NAMES, TOOL_VERSIONS, type TerraformToolName } from "./versions.js";
