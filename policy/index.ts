/**
 * The `certreseller-guardrails` policy pack.
 *
 * @example
 * ```sh
 * pulumi preview --policy-pack ./policy --policy-pack-config ./policy-config.json
 * ```
 */
import { PolicyPack } from "@pulumi/policy";
import { policies } from "./src/policies";

// Relative imports carry no extension here: the analyzer loads this pack with
// the ts-node (7.x) bundled in @pulumi/pulumi, which does not map `.js`
// specifiers to `.ts` files. Extensionless imports are valid for CommonJS
// under `module: nodenext`.
new PolicyPack("certreseller-guardrails", { policies });
