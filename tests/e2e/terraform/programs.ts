/**
 * The HCL programs the Terraform e2e files run against our provider: the
 * `terraform` block naming it (at the packed version) around the variables
 * and resources each file needs, and the common one-Order program.
 */
import { PROVIDER_SOURCE } from "../../../scripts/terraform/index.js";

export interface ProgramParts {
  /** String variables the resources read (`var.<name>`). */
  variables?: string[];
  /** The resource blocks, as HCL. */
  resources: string;
}

/**
 * A program requiring our provider at `version` (from the packed mirror),
 * declaring `variables` as strings, then `resources`.
 *
 * @example
 * certresellerProgram(terraform.providerVersion, { variables: ["zone"], resources: orders })
 */
export function certresellerProgram(version: string, { variables = [], resources }: ProgramParts): string {
  return `
terraform {
  required_providers {
    certreseller = {
      source  = "${PROVIDER_SOURCE}"
      version = "${version}"
    }
  }
}
${variables.map((name) => `\nvariable "${name}" { type = string }\n`).join("")}
provider "certreseller" {}
${resources}`;
}

export interface SiteOptions {
  /** The Certificate of the Order beside it (default true). */
  certificate?: boolean;
  /** Sets the Order's `adopt_order_no`. */
  adoptOrderNo?: string;
}

/**
 * `certreseller_order.site` for `var.domain` (sandbox-dv-single, DNS
 * validation) and, unless `certificate: false`, `certreseller_certificate.site`
 * downloading it.
 *
 * @example
 * createTerraformWorld(terraform, name, { "main.tf": siteProgram(terraform.providerVersion) });
 */
export function siteProgram(version: string, { certificate = true, adoptOrderNo }: SiteOptions = {}): string {
  const adopt = adoptOrderNo ? `\n  adopt_order_no      = "${adoptOrderNo}"` : "";
  const order = `
resource "certreseller_order" "site" {
  product_code        = "sandbox-dv-single"
  domain              = var.domain
  verification_method = "dns"${adopt}
}
`;
  const certificateBlock = `
resource "certreseller_certificate" "site" {
  order_no   = certreseller_order.site.order_no
  request_id = certreseller_order.site.request_id
}
`;
  return certresellerProgram(version, { variables: ["domain"], resources: order + (certificate ? certificateBlock : "") });
}
