/**
 * The `ValidatedCertificate` component as one declaration: its token,
 * description, arguments and outputs, for the package schema, the argument
 * and output types and the reference. `ValidatedCertificateArgs` and the
 * class's outputs are held to it by the compiler (below).
 *
 * Its arguments are the Order's (declared once, in `order/inputs.ts`, and
 * referenced here), `publish`, and five of the Certificate's. What a change
 * does is what it does to the child that takes the argument: an Order
 * argument as on an Order (`replace` buys a new order, and the Validation
 * and Certificate follow it), `timeoutMinutes` and the propagation check's as on the Certificate.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as t from "../../schema/property.js";
import { CERTIFICATE_PROPERTIES } from "../certificate/declaration.js";
import { ORDER_INPUTS } from "../order/inputs.js";
import { FROM_CERTIFICATE, type FromCertificate } from "./passed-on.js";
import type { ValidatedCertificate, ValidatedCertificateArgs } from "./resource.js";

/**
 * Arguments the component passes to a child and does not report itself
 * (`output: false`): the component registers only its own outputs below;
 * an Order argument, as normalised, is read from `order`.
 */
function argumentsOnly<T extends t.PropertyTable>(table: T): { [K in keyof T]: T[K] & { readonly output: false } } {
  return Object.fromEntries(Object.entries(table).map(([name, p]) => [name, { ...p, output: false }])) as { [K in keyof T]: T[K] & { readonly output: false } };
}

/** The Certificate's outputs the component passes on, each described as the Certificate's. */
function fromCertificate<const K extends FromCertificate>(names: readonly K[]) {
  return Object.fromEntries(
    names.map((name) => [name, { ...withoutPluginNotes(CERTIFICATE_PROPERTIES[name]), description: `The Certificate's \`${name}\`: ${CERTIFICATE_PROPERTIES[name].description}` }]),
  ) as { [N in K]: Omit<(typeof CERTIFICATE_PROPERTIES)[N], "reportedWhen" | "derived"> & { readonly description: string } };
}

/**
 * A Certificate property without what tells the front ends apart (`reportedWhen`, `derived`):
 * the component is a TypeScript class, computing every derived form when read.
 */
function withoutPluginNotes<P extends t.PropertyDeclaration>(p: P): Omit<P, "reportedWhen" | "derived"> {
  const { reportedWhen: _pluginOnly, derived: _derived, ...rest } = p;
  return rest;
}

// The three name arguments must be plain strings here (`publish` is called
// once per name while the program runs); the rest of the Order's arguments
// are taken as the Order declares them.
const { productCode, domain, sanDomains, wildcardDomains, ...orderInputs } = ORDER_INPUTS;
const PLAIN = " Must be known when the program runs (plain strings, not Outputs): `publish` is called once per name, preview included.";

export const VALIDATED_CERTIFICATE_PROPERTIES = {
  ...argumentsOnly({ productCode }),
  domain: { ...domain, description: domain.description + PLAIN, tsType: "string", output: false },
  sanDomains: { ...sanDomains, description: sanDomains.description + PLAIN, tsType: "string[]", output: false },
  wildcardDomains: { ...wildcardDomains, description: wildcardDomains.description + PLAIN, tsType: "string[]", output: false },
  ...argumentsOnly(orderInputs),
  // A callback: it cannot exist in the package schema (`tsOnly`).
  publish: {
    description:
      "Called once per ordered name (main domain, SANs, wildcards) while the program runs, preview included, with the name's record " +
      "(`name` as declared; `domain`, `fqdn`, `type`, `recordType`, `value`, `url`, `path`, `content`, `email` as Outputs) and `{ parent, index }`; " +
      "returns the resource(s) that publish that name's record. The Certificate waits for all of them. Give them names unique per record (e.g. from `record.name`).",
    type: t.anyValue,
    typeNote: "`(record, { parent, index }) => Resource | Resource[]`",
    tsType: "(record: ValidationRecordToPublish, context: { parent: pulumi.ComponentResource; index: number }) => pulumi.Resource | pulumi.Resource[]",
    required: true,
    tsOnly: true,
    output: false,
    change: "none",
    changeNote: "called on every run; the resources it returns are compared as resources of their own",
  },
  timeoutMinutes: {
    ...CERTIFICATE_PROPERTIES.timeoutMinutes,
    description: "The Certificate's wait for issuance in minutes; `customTimeouts.create` on the component works too.",
    output: false,
  },
  propagationCheck: { ...CERTIFICATE_PROPERTIES.propagationCheck, description: `The Certificate's: ${CERTIFICATE_PROPERTIES.propagationCheck.description}` },
  propagationTimeoutMinutes: CERTIFICATE_PROPERTIES.propagationTimeoutMinutes,
  propagationResolvers: CERTIFICATE_PROPERTIES.propagationResolvers,
  pfxPassword: {
    ...withoutPluginNotes(CERTIFICATE_PROPERTIES.pfxPassword),
    description:
      "The Certificate's PKCS#12 password (pass it as a secret); derived from the key when omitted (see `Certificate.pfxPassword`). As an output: the Certificate's `pfxPassword`.",
  },
  // The children, for everything the component does not pass on: TypeScript
  // objects, not data (`tsOnly`).
  order: t.output("The Order child (named as the component).", t.anyValue, { tsOutputType: "Order", typeNote: "an `Order`", required: true, tsOnly: true }),
  validation: t.output("The Validation child (named as the component).", t.anyValue, {
    tsOutputType: "Validation",
    typeNote: "a `Validation`",
    required: true,
    tsOnly: true,
  }),
  certificate: t.output("The Certificate child (named as the component).", t.anyValue, {
    tsOutputType: "Certificate",
    typeNote: "a `Certificate`",
    required: true,
    tsOnly: true,
  }),
  records: t.output("Every resource `publish` returned, in the order of the names.", t.anyValue, {
    tsOutputType: "pulumi.Resource[]",
    typeNote: "the resources `publish` returned",
    required: true,
    tsOnly: true,
  }),
  orderNo: t.output("The order number (the Order's `orderNo`).", t.string, { required: true }),
  certId: t.output("The Certificate's `certId`: the certificate's UUID at the service.", t.string, { required: true }),
  ...fromCertificate(FROM_CERTIFICATE),
} as const satisfies t.PropertyTable;

export const VALIDATED_CERTIFICATE = t.resource("ValidatedCertificate", {
  component: true,
  description:
    "The common case in one call: an Order, its Validation, your resources publishing each validation record (what `publish` returns), and the " +
    "Certificate that waits for them — with the certificate's outputs. The children are named as the component; `customTimeouts` given to the " +
    "component set the Certificate's wait. The `import` option is refused (see `adoptOrderNo` to take over an existing order).",
  properties: VALIDATED_CERTIFICATE_PROPERTIES,
});

type Props = typeof VALIDATED_CERTIFICATE_PROPERTIES;
// Every argument is a declared input and every input an argument.
const argsMatch: t.Same<keyof ValidatedCertificateArgs, t.InputNames<Props>> = true;
// The class's Outputs are the declared data outputs (`urn` is every resource's) ...
const outputsMatch: t.Same<Exclude<t.MembersOfType<ValidatedCertificate, pulumi.Output<unknown>>, "urn">, Exclude<t.OutputNames<Props>, t.TsOnlyNames<Props>>> = true;
// ... and its children the declared TypeScript-only outputs.
const childrenMatch: t.Same<
  t.MembersOfType<ValidatedCertificate, pulumi.Resource | pulumi.Resource[]>,
  Exclude<t.OutputNames<Props>, t.InputNames<Props>>
  & t.TsOnlyNames<Props>
> = true;
void argsMatch;
void outputsMatch;
void childrenMatch;
