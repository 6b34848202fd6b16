import * as pulumi from "@pulumi/pulumi";

/**
 * The declared outputs a resource instance lacks: an `Output` for data, a
 * defined value for a TypeScript-only child. Takes any resource declaration
 * (`{ properties }`), so the unit tests (sources) and the e2e suite (built
 * package) share it.
 *
 * @example missingOutputs(ORDER, new Order("o", { productCode: "p", domain: "o.example.com" })) // []
 */
export function missingOutputs(declaration: { readonly properties: object }, instance: object): string[] {
  const values = instance as Record<string, unknown>;
  return Object.entries(declaration.properties as Record<string, { output?: boolean; tsOnly?: boolean }>)
    .filter(([, p]) => p.output !== false)
    .filter(([name, p]) => (p.tsOnly ? values[name] === undefined : !pulumi.Output.isInstance(values[name])))
    .map(([name]) => name);
}
