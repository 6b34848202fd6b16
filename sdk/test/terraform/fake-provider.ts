// The real command (src/cmd/terraform-provider-certreseller.ts) with a small
// in-test provider, for the tests that start it as Terraform does: its
// entry's source, tsx's loader to run it, and the gRPC library to talk to it.
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type * as GrpcJs from "@grpc/grpc-js";

const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
/** `@grpc/grpc-js` as the SDK resolves it (through @pulumi/pulumi). */
export const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] })) as typeof GrpcJs;
/** The command's source. */
export const CMD = path.join(__dirname, "..", "..", "src", "cmd", "terraform-provider-certreseller.ts");
/** tsx's loader: `node --import <TSX> entry.cjs` runs the command from its TypeScript. */
export const TSX = pathToFileURL(path.join(path.dirname(require.resolve("tsx/package.json")), "dist", "loader.mjs")).href;

export interface FakeProviderOptions {
  /** Source run first in the entry (e.g. a `require`). */
  prelude?: string;
  /** Whether the schema has the data source `certreseller_info` (default false). */
  dataSource?: boolean;
  /** The provider's `applyResourceChange`, as source (default: the planned state). */
  apply?: string;
  /** The provider's `stop`, as source (default: answers nothing). */
  stop?: string;
  /** Source run after the command started. */
  epilogue?: string;
}

/**
 * The source of a CommonJS entry running the command with a provider of one
 * resource type, `certreseller_thing` (a required string `name`), that
 * plans, applies and reads back what it is given.
 *
 * @example
 * fs.writeFileSync(entryFile, fakeProviderEntry({ dataSource: true }));
 */
export function fakeProviderEntry(options: FakeProviderOptions = {}): string {
  return `
${options.prelude ?? ""}
const { runFromCommandLine } = require(${JSON.stringify(CMD)});
const block = { version: 0, description: "d", attributes: { name: { type: "string", description: "n", required: true } } };
runFromCommandLine(() => ({
  schema: () => ({ provider: { version: 0, description: "p", attributes: {} }, resources: { certreseller_thing: block }, dataSources: { ${options.dataSource ? "certreseller_info: block" : ""} } }),
  validateProviderConfig: async () => [],
  configure: async () => [],
  validateResourceConfig: async () => [],
  validateDataSourceConfig: async () => [],
  upgradeResourceState: async (_t, _v, state) => ({ state }),
  planResourceChange: async (r) => ({ plannedState: r.proposedNewState }),
  applyResourceChange: ${options.apply ?? "async (r) => ({ newState: r.plannedState })"},
  readResource: async (_t, state) => ({ newState: state }),
  importResourceState: async () => ({ imported: [] }),
  readDataSource: async (_t, config) => ({ state: config }),
  stop: ${options.stop ?? "async () => undefined"},
}));
${options.epilogue ?? ""}
`;
}
