import * as pulumi from "@pulumi/pulumi";

/**
 * The URN the engine will give a resource, for use as one of its own
 * inputs (the Order's `journalKey`, the Certificate's `resourceUrn`): the
 * text itself when the resource has no explicit parent, else a promise of it.
 *
 * Why not `pulumi.createUrn`'s Output: it is built from several Outputs, each
 * with its promises, for every Order and Certificate of a program, while the
 * URN of a resource without a parent is plain text (`createUrn` gives the same
 * text). And with a parent it is a plain promise, not that Output: the Output
 * depends on the parent, and an input that depends on a component waits for
 * every child of it — a sibling Validation that depends on this Order would
 * then wait forever (e.g. inside ValidatedCertificate).
 *
 * @example
 * resourceUrnInput("site", "pulumi-nodejs:dynamic/certreseller:Order", undefined)
 * // "urn:pulumi:dev::infra::pulumi-nodejs:dynamic/certreseller:Order::site"
 */
export function resourceUrnInput(name: string, type: string, parent: pulumi.Resource | undefined): string | Promise<string> {
  if (parent === undefined) return `urn:pulumi:${pulumi.getStack()}::${pulumi.getProject()}::${type}::${name}`;
  const urn = pulumi.createUrn(name, type, parent);
  return new Promise<string>((resolve) => urn.apply(resolve));
}
