/**
 * Every resource of the package, one entry each: its declaration, its
 * handler module, its presentation, its reference page and where its
 * generated TypeScript types go. The schema and docs generator
 * (`codegen/package.ts`) and the provider plugin (`plugin/served-resources.ts`)
 * read this list; the provider entry finds a handler module by its name
 * (`provider/entry.ts`). Adding a resource is a folder under `resources/`
 * (declaration, handlers, class, presentation) and a line here, then
 * `npm run generate` (which also exports its class from the package root).
 */
import type { ResourceHandlerName } from "./provider/entry.js";
import type { ResourceDeclaration } from "./schema/property.js";
import type { TypeImports } from "./codegen/typescript.js";
import { CERTIFICATE } from "./resources/certificate/declaration.js";
import { presentation as certificatePresentation } from "./resources/certificate/presentation.js";
import { ORDER } from "./resources/order/declaration.js";
import { presentation as orderPresentation } from "./resources/order/presentation.js";
import { RFC2136_RECORD } from "./resources/rfc2136-record/declaration.js";
import type { Presentation } from "./resources/shared/presentation.js";
import { VALIDATED_CERTIFICATE } from "./resources/validated-certificate/declaration.js";
import { VALIDATION } from "./resources/validation/declaration.js";
import { presentation as validationPresentation } from "./resources/validation/presentation.js";
import { SANDBOX_DNS_RECORD } from "./sandbox-records/declarations.js";
import { STACK_JOURNAL } from "./resources/stack-journal/declaration.js";
import { presentation as stackJournalPresentation } from "./resources/stack-journal/presentation.js";

export interface RegisteredResource {
  readonly declaration: ResourceDeclaration;
  /** Its folder under `sdk/src/`. Under `resources/`, its `resource.ts` is exported from the package root (the generated `resources.generated.ts`). */
  readonly folder: string;
  /** Its handler module's name (`provider/entry.ts`): a custom resource, served by the plugin and in the schema. Absent: a component, TypeScript only. */
  readonly handler?: ResourceHandlerName;
  /** What its class does in the program that the plugin must do itself (absent: nothing). */
  readonly presentation?: Presentation;
  /** It buys: the plugin's check names the account that pays and stops on a purchase journaled under no organisation. */
  readonly buys?: boolean;
  /** Its reference page (repository-relative), whose input and output tables are generated. */
  readonly page?: string;
  /** Its generated `properties.generated.ts` (in its folder), and the modules that file takes named types from. */
  readonly types?: { readonly imports: TypeImports };
}

const CLIENT_TYPES = "../../client/types.js";

/** In the order the schema, the plugin and the docs list them. */
export const RESOURCES: readonly RegisteredResource[] = [
  {
    declaration: ORDER,
    folder: "resources/order",
    handler: "order",
    presentation: orderPresentation,
    buys: true,
    page: "docs/reference/order.md",
    types: {
      imports: {
        [CLIENT_TYPES]: ["CertStatus", "CompanyInfo", "HashAlgorithm", "KeySpec", "Open", "OpenInt", "PaymentMethod", "SignatureAlgorithm", "VerificationMethod"],
        "../../money/stored-price.js": ["OrderPriceState"],
      },
    },
  },
  {
    declaration: VALIDATION,
    folder: "resources/validation",
    handler: "validation",
    presentation: validationPresentation,
    page: "docs/reference/validation.md",
    types: { imports: { "./order-like.js": ["OrderLike"], "./records.js": ["DomainValidationRecord"] } },
  },
  {
    declaration: CERTIFICATE,
    folder: "resources/certificate",
    handler: "certificate",
    presentation: certificatePresentation,
    page: "docs/reference/certificate.md",
    types: { imports: { "../order/resource.js": ["Order"] } },
  },
  // TypeScript only: its `publish` is a function of the program, which no schema can carry (docs/languages.md gives its steps for other languages).
  { declaration: VALIDATED_CERTIFICATE, folder: "resources/validated-certificate", page: "docs/reference/validated-certificate.md" },
  {
    declaration: RFC2136_RECORD,
    folder: "resources/rfc2136-record",
    handler: "rfc2136-record",
    page: "docs/reference/rfc2136-record.md",
    types: { imports: {} },
  },
  {
    declaration: STACK_JOURNAL,
    folder: "resources/stack-journal",
    handler: "stack-journal",
    presentation: stackJournalPresentation,
    page: "docs/reference/stack-journal.md",
    types: { imports: {} },
  },
  // The sandbox's record resources: exported as `testing` (sandbox-records/index.ts).
  { declaration: SANDBOX_DNS_RECORD, folder: "sandbox-records", handler: "testing/dns-record", types: { imports: {} } },
];
