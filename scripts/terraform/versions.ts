// The Terraform-protocol CLIs the e2e suite drives, pinned. Both are built
// from their module zips on the Go module proxy (scripts/terraform/build.ts),
// the only source of binaries this project's machines reach.

/** OpenTofu: the newest release the Go module proxy serves here. */
export const OPENTOFU_VERSION = "1.12.6";

/** Terraform: the release the docs name (`required_version` ≥ 1.13 is not asserted; this is what the e2e suite runs). */
export const TERRAFORM_VERSION = "1.13.3";

/** Which CLI: each reads the same HCL and speaks the same plugin protocol (v6). */
export type TerraformToolName = "tofu" | "terraform";

export const TOOL_NAMES: readonly TerraformToolName[] = ["tofu", "terraform"];

export const TOOL_VERSIONS: Record<TerraformToolName, string> = { tofu: OPENTOFU_VERSION, terraform: TERRAFORM_VERSION };

/**
 * hashicorp/dns, built from its vendored source (third_party/terraform-provider-dns/:
 * the Go module proxy answers 403 for it): the neighbour that publishes
 * validation records over RFC 2136 in the docs' first HCL program.
 */
export const DNS_PROVIDER_VERSION = "3.6.1";
