/**
 * The `Validation` resource as one declaration: its token, description and
 * every property, for the package schema, the argument and output types and
 * the reference page. The handwritten `ValidationArgs`, the class's outputs
 * and `DomainValidationRecord` are held to it by the compiler (below).
 *
 * Change effects are those of `diff.ts`: a new `orderNo` (or an
 * unknown one) replaces; `domains`, `method` and `requestId` re-read the
 * records in place. Nothing else is compared.
 */
import type * as pulumi from "@pulumi/pulumi";
import { VERIFICATION_METHODS } from "../../client/vocabulary.js";
import * as t from "../../schema/property.js";
import { sameMethod } from "../shared/verification-method.js";
import { MISSING_DOMAINS, MISSING_ORDER_NO, parseValidationInput as parse } from "./parse.js";
import type { DomainValidationRecord } from "./records.js";
import type { Validation, ValidationArgs } from "./resource.js";

const member = (description: string) => ({ description, type: t.string, required: true as const });

/** The members of one validation record, as the class gives them to the program (every member set; empty where it does not apply). */
export const VALIDATION_RECORD_MEMBERS = {
  orderedName: member(
    "The order's name this record is for, as the order lists it (`*.example.com` for a wildcard); empty when the record matches none of the declared names.",
  ),
  domain: member("The validated name: a wildcard's record carries its base name (`example.com` for `*.example.com`)."),
  type: member("`main` or `san` as the service sends it (`wildcard` also occurs); empty when the service sends none."),
  method: member("The validation method in effect: `dns`, `cname`, `file`, `email-admin`, ..., `dcv` (spec 4.5)."),
  name: member("DNS: the record name relative to `domain` (e.g. `_dnsauth`; empty at the apex); file: the file name."),
  fqdn: member("DNS: the absolute record name, `<name>.<domain>`; empty for other kinds."),
  recordType: member("DNS: `TXT` or `CNAME`; file: `FILE`; empty for e-mail."),
  value: member("DNS: the TXT content or CNAME target."),
  hint: member("The service's instruction text (GetRecord sends one per DNS record), else empty."),
  url: member("File: the full URL the CA fetches, `http://<domain>/.well-known/pki-validation/<file>`."),
  path: member("File: the path under the web root (`/.well-known/pki-validation/<file>`)."),
  content: member("File: the exact file content."),
  email: member("E-mail: the address the approval mail goes to."),
} as const satisfies t.PropertyTable;

/** The object type of one entry of `records`. */
export const VALIDATION_RECORD = t.objectType(
  "ValidationRecord",
  "One validation record of an order, shaped for publishing: one per ordered name. Members that do not apply to the record's kind are empty strings.",
  VALIDATION_RECORD_MEMBERS,
);

const methodCodes = VERIFICATION_METHODS.map((m) => `\`${m}\``).join(", ");

/** A list of names in one order, so that a reordered list is no change. */
const sortedOrNull = (names: unknown) => (Array.isArray(names) ? [...names].sort() : null);

export const VALIDATION_PROPERTIES = {
  // `order` is a TypeScript convenience: the class reads the Order's number,
  // names, method and request id from it and sends those as the four inputs
  // below. An object holding another resource cannot exist in the package
  // schema, so it is `tsOnly` (the schema leaves it out) and never an output.
  order: {
    description:
      "The Order to validate (instead of `orderNo` and `domains`): fills `orderNo` (from its id), `domains` (its main name, SANs and wildcards), " +
      "`method` (its `verificationMethod`) and `requestId` (its `requestId`), so a method switch or a reissue of the Order re-reads the records.",
    type: t.anyValue,
    typeNote: "an `Order`",
    tsType: "OrderLike",
    tsOnly: true,
    output: false,
    // What a change does is what it does to the inputs it fills: another
    // order (another number) replaces; new names, method or request id re-read.
    change: "replace",
    changeNote: "when it is another order (its number is followed); its names, method and request id are followed too (an **update**: records re-read)",
  },
  // Required: whatever the program passes, the resource receives an order
  // number and names (`order` fills them), and without `order` (every
  // language but TypeScript) the program must give them.
  orderNo: {
    description: "The order number (e.g. `order.orderNo`, or an order bought elsewhere); also the resource id.",
    type: t.string,
    typeNote: "string (instead of `order`: an order bought elsewhere)",
    defaultNote: "— (required without `order`)",
    required: true,
    filledBy: "order",
    missing: MISSING_ORDER_NO,
    parse: parse.orderNo,
    change: "replace",
  },
  domains: {
    description:
      "The order's names (main, SANs, wildcards): one record each, checked to be covered by the order. As an output: the declared names, known at preview.",
    type: t.listOf(t.string),
    typeNote: "string[] (with `orderNo`)",
    defaultNote: "— (required without `order`)",
    required: true,
    filledBy: "order",
    missing: MISSING_DOMAINS,
    parse: parse.domains,
    change: "update",
    changeNote: "records re-read; a different order of the same names is no change",
    same: (old, next) => JSON.stringify(sortedOrNull(old)) === JSON.stringify(sortedOrNull(next)),
  },
  method: {
    alwaysSet: true,
    description:
      `The method the order uses (a spec 4.5 code: ${methodCodes}); when given, the service must agree, and when it changes the records are re-read. ` +
      "As an output: the method in effect at the service; bare `email` only when the service says `email` and neither the program nor the records name the mailbox.",
    type: t.string,
    typeNote: "string, optional (with `orderNo`): a spec 4.5 code",
    defaultNote: "— (the method the service reports)",
    change: "update",
    parse: parse.method,
    changeNote: "records re-read; unset is no change, and `email` matches any `email-…` method",
    same: (old, next) => next === undefined || sameMethod(next, old ?? ""),
  },
  requestId: {
    alwaysSet: true,
    description:
      "The order's sign request id (ApplySign's or the last method change's `request_id`); when it changes the records are re-read. " +
      "GetRecord does not report it, so without it only a method change re-reads. As an output: the request id the records belong to (empty when not given).",
    type: t.string,
    typeNote: "string, optional (with `orderNo`)",
    defaultNote: "— (empty)",
    change: "update",
    parse: parse.requestId,
    changeNote: "records re-read; unset or empty is no change",
    same: (old, next) => next === undefined || next === null || next === "" || next === old,
  },
  emailSuffix: t.output(
    "Derived from `method`: `admin` for `email-admin`, ...; empty for the other methods. (There is no separate suffix input: the method code names the mailbox.)",
    t.string,
    { required: true },
  ),
  records: t.output(
    "One record per ordered name (`orderedName` is the name as ordered, so a wildcard and its base name each get their own record; `domain` is where it " +
      "is validated — a wildcard at its base name). `url` is the full URL the CA fetches, `path` the path under the web root. Stored compact in state; the class gives every member.",
    t.listOf(VALIDATION_RECORD),
    {
      typeNote: "`[{ orderedName, domain, type, method, name, fqdn, recordType, value, hint, url, path, content, email }]`",
      tsOutputType: "DomainValidationRecord[]",
      required: true,
    },
  ),
} as const satisfies t.PropertyTable;

export const VALIDATION = t.resource("Validation", {
  description:
    "The validation records of an order (GetRecord; no rate limit), shaped for DNS and web resources: one record per ordered name. " +
    "It follows the order's method and request id: a method switch re-reads the records, and the DNS resources built from them follow with the new tokens. " +
    "Deleting it changes nothing at the service; on refresh, an order that no longer exists removes it from state with a warning.",
  properties: VALIDATION_PROPERTIES,
});

// `DomainValidationRecord` has exactly the declared members, each always set.
const recordMembers: t.Same<keyof DomainValidationRecord, keyof typeof VALIDATION_RECORD_MEMBERS> = true;
const recordAlwaysSet: t.Same<t.AlwaysSetKeys<DomainValidationRecord>, t.RequiredNames<typeof VALIDATION_RECORD_MEMBERS>> = true;
// Every argument (of either form of `ValidationArgs`) is a declared input, and every input an argument.
const argsMatch: t.Same<t.KeysOfUnion<ValidationArgs>, t.InputNames<typeof VALIDATION_PROPERTIES>> = true;
// The class's outputs are the declared outputs (`id` and `urn` are every resource's).
const outputsMatch: t.Same<Exclude<t.MembersOfType<Validation, pulumi.Output<unknown>>, "id" | "urn">, t.OutputNames<typeof VALIDATION_PROPERTIES>> = true;
void recordMembers;
void recordAlwaysSet;
void argsMatch;
void outputsMatch;
