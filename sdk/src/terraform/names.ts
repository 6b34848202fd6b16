/**
 * Terraform's names for the declarations' camelCase ones: the one rule every
 * resource, data source, attribute and object member goes through, so a new
 * declared property gets its HCL name without a line here.
 */

/**
 * The snake_case name of a camelCase one (digits stay with the word before them).
 *
 * @example
 * snakeCase("privateKeyPkcs8Pem") === "private_key_pkcs8_pem"
 * snakeCase("Rfc2136Record") === "rfc2136_record"
 */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}

/** The provider's name, the prefix of every type name. */
export const PROVIDER_NAME = "certreseller";

/**
 * The Terraform type name of a declaration's name (a resource's class name or a function's).
 *
 * @example
 * typeName("Order") === "certreseller_order"
 * typeName("getProducts") === "certreseller_products" // a data source: the `get` is Terraform's `data`
 */
export function typeName(name: string): string {
  return `${PROVIDER_NAME}_${snakeCase(name.replace(/^get(?=[A-Z])/, ""))}`;
}

/**
 * An attribute path as a check failure names it (`domains[2]`,
 * `companyInfo.email`, `""` for the whole resource), in Terraform's names.
 *
 * @example
 * attributePath("companyInfo.email") // ["company_info", "email"]
 * attributePath("domains[2]") // ["domains", 2]
 */
export function attributePath(property: string): (string | number)[] {
  const path: (string | number)[] = [];
  for (const part of property.split(/[.[\]]+/).filter((p) => p !== "")) path.push(/^\d+$/.test(part) ? Number(part) : snakeCase(part));
  return path;
}

/** Advice about the Pulumi engine's own records (its pending operations), which Terraform does not keep: dropped. */
const PULUMI_ONLY: readonly RegExp[] = [
  / That run's create stays in the stack as a pending operation[\s\S]*?only the stale record goes\)/g,
  /\. If later commands repeat "Attempting to deploy[\s\S]*?once this update has finished/g,
];

/** The Pulumi commands the handlers' messages name, and what a Terraform user runs instead. */
const COMMANDS: readonly [RegExp, string][] = [
  [/\bpulumi up --replace\b/g, "terraform apply -replace"],
  [/\bpulumi up\b/g, "terraform apply"],
  [/\bpulumi preview\b/g, "terraform plan"],
  [/\bpulumi refresh\b/g, "terraform apply -refresh-only"],
  [/\bpulumi destroy\b/g, "terraform destroy"],
  [/\bpulumi state delete\b/g, "terraform state rm"],
  [/\bpulumi import\b/g, "terraform import"],
];

/**
 * A handler's message in a Terraform user's words: the commands it names,
 * the declared properties it names (`adoptOrderNo`) as their attributes
 * (`adopt_order_no`), and without advice about the Pulumi engine's pending
 * operations. `names`: the camelCase names to rewrite.
 *
 * @example
 * terraformWords("set `adoptOrderNo` and run `pulumi up` again", ["adoptOrderNo"]) // "set `adopt_order_no` and run `terraform apply` again"
 */
export function terraformWords(text: string, names: readonly string[]): string {
  // A setting to set: in Terraform, the provider block's attribute (or the same environment variable the message also names).
  let out = PULUMI_ONLY.reduce((t, pattern) => t.replace(pattern, ""), text).replace(/`pulumi config set (?:--secret )?certreseller:(\w+)[^`]*`/g, (_all, setting: string) => `\`${snakeCase(setting)}\` in the provider block`);
  out = out.replace(/`?certreseller:(\w+)`?/g, (_all, setting: string) => `the provider's \`${snakeCase(setting)}\``);
  for (const [pattern, replacement] of COMMANDS) out = out.replace(pattern, replacement);
  if (names.length === 0) return out;
  const pattern = new RegExp(`\\b(${[...names].sort((a, b) => b.length - a.length).join("|")})\\b`, "g");
  return out.replace(pattern, (name) => snakeCase(name));
}
