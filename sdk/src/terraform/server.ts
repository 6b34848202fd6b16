/**
 * The gRPC services a Terraform provider process serves: `tfplugin6.Provider`
 * (values decoded with the schema's types and handed to a
 * {@link TerraformProvider}, its answers encoded back), and go-plugin's
 * controller (Shutdown), stdio stream and health check. {@link serveTerraform}
 * runs the whole process: handshake, mTLS, unix socket, signals, exit.
 */
import * as path from "node:path";
import type * as GrpcJs from "@grpc/grpc-js";
import type * as ProtoLoader from "@grpc/proto-loader";
import { decodeDynamicValue, decodeJsonBytes, encodeDynamicValue, TfCodecError, typeJson, type WireDynamicValue } from "./codec.js";
import { UNKNOWN, type Diagnostic, type TerraformProvider, type TfBlock, type TfObject, type TfPath, type TfSchema, type TfType, type TfValue } from "./contract.js";
import { generateServerCertificate, handshakeLine, hclogLogger, makeSocketDir, readHandshakeEnv, routeConsole, type Logger } from "./handshake.js";

// grpc-js as @pulumi/pulumi resolves it (one copy in the process, as plugin/protocol.ts does), and
// proto-loader as grpc-js itself depends on it.
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const grpcDir = path.dirname(require.resolve("@grpc/grpc-js/package.json", { paths: [pulumiDir] }));
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] })) as typeof GrpcJs;
const protoLoader = require(require.resolve("@grpc/proto-loader", { paths: [grpcDir] })) as typeof ProtoLoader;

/** The vendored .proto files: the package's `proto/terraform` (the same folder from `src/` and from `dist/`). */
export const PROTO_DIR = path.join(__dirname, "..", "..", "proto", "terraform");

/** How messages look in JS: snake_case fields, int64 as numbers, enums by name, every field present. */
export const PROTO_LOADER_OPTIONS: ProtoLoader.Options = { keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true, includeDirs: [PROTO_DIR] };

/** grpc-js service definitions of the four services, loaded from the vendored files. */
export interface TerraformProtos {
  readonly provider: GrpcJs.ServiceDefinition;
  readonly controller: GrpcJs.ServiceDefinition;
  readonly stdio: GrpcJs.ServiceDefinition;
  readonly health: GrpcJs.ServiceDefinition;
  /** The whole package tree, for clients (tests) that need constructors. */
  readonly packages: GrpcJs.GrpcObject;
}

let loaded: TerraformProtos | undefined;

/** Loads the vendored .proto files (once per process). */
export function loadTerraformProtos(): TerraformProtos {
  if (loaded) return loaded;
  const definition = protoLoader.loadSync(["tfplugin6.proto", "plugin/grpc_controller.proto", "plugin/grpc_stdio.proto", "grpc/health/v1/health.proto"], PROTO_LOADER_OPTIONS);
  const packages = grpc.loadPackageDefinition(definition);
  const service = (name: string) => {
    const found = definition[name] as GrpcJs.ServiceDefinition | undefined;
    if (!found) throw new Error(`the service ${name} is missing from the .proto files in ${PROTO_DIR}`);
    return found;
  };
  loaded = {
    provider: service("tfplugin6.Provider"),
    controller: service("plugin.GRPCController"),
    stdio: service("plugin.GRPCStdio"),
    health: service("grpc.health.v1.Health"),
    packages,
  };
  return loaded;
}

/** Terraform's message size limit (its client sets 256 MiB both ways); a big state must not be refused here first. */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export interface TerraformServiceOptions {
  /** Where the server logs which calls it answers (never their values). */
  readonly logger?: Logger;
  /** go-plugin's Controller/Shutdown arrived (after it is answered). */
  readonly onShutdown?: () => void;
}

type Wire = Record<string, unknown>;

/** The type a call names, its schema block and the value type of that block. */
interface NamedType {
  typeName: string;
  block: TfBlock;
  type: TfType;
}

type Handler = (request: Wire) => Promise<Wire>;

/**
 * The services, bound to one provider: add them to a grpc-js server with
 * {@link TerraformServices.addTo}. Calls the contract does not cover are left
 * out, so grpc-js answers them UNIMPLEMENTED.
 */
export class TerraformServices {
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  private schemaCache: TfSchema | undefined;
  private readonly streams = new Set<GrpcJs.ServerWritableStream<Wire, Wire>>();
  private readonly logger: Logger | undefined;

  constructor(
    private readonly provider: TerraformProvider,
    private readonly options: TerraformServiceOptions = {},
  ) {
    this.logger = options.logger;
  }

  /** Registers the four services on `server`. */
  addTo(server: GrpcJs.Server, protos: TerraformProtos = loadTerraformProtos()): void {
    server.addService(protos.provider, this.providerImplementation());
    server.addService(protos.controller, {
      Shutdown: (_call: GrpcJs.ServerUnaryCall<Wire, Wire>, callback: GrpcJs.sendUnaryData<Wire>) => {
        callback(null, {});
        this.logger?.log("debug", "go-plugin asked the provider to shut down");
        setImmediate(() => this.options.onShutdown?.());
      },
    });
    server.addService(protos.stdio, {
      // Nothing is mirrored (logs go to stderr as hclog lines), but the stream stays open as go-plugin expects.
      StreamStdio: (call: GrpcJs.ServerWritableStream<Wire, Wire>) => {
        call.on("error", () => undefined);
        // Headers now: the client sees the stream open, though no data ever comes.
        call.sendMetadata(new grpc.Metadata());
        this.streams.add(call);
        call.on("close", () => this.streams.delete(call));
      },
    });
    server.addService(protos.health, {
      Check: (call: GrpcJs.ServerUnaryCall<{ service: string }, Wire>, callback: GrpcJs.sendUnaryData<Wire>) => {
        const service = call.request.service;
        if (service === "" || service === "plugin") callback(null, { status: "SERVING" });
        else callback({ code: grpc.status.NOT_FOUND, details: `no health status for the service ${JSON.stringify(service)} (this provider reports "plugin" and "")` });
      },
    });
  }

  /** Ends the open stdio streams, so that a graceful shutdown does not wait for them. */
  endStreams(): void {
    for (const stream of this.streams) stream.end();
    this.streams.clear();
  }

  /** Provider calls now running. */
  get running(): number {
    return this.inFlight;
  }

  /** Resolves when no provider call is running. */
  whenIdle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private schema(): TfSchema {
    this.schemaCache ??= this.provider.schema();
    return this.schemaCache;
  }

  private providerImplementation(): GrpcJs.UntypedServiceImplementation {
    const calls: Record<string, Handler> = {
      GetMetadata: async () => this.getMetadata(),
      GetProviderSchema: async () => this.getProviderSchema(),
      // Terraform asks on every schema load; an empty answer says "no resource has an identity".
      GetResourceIdentitySchemas: async () => ({ identity_schemas: {}, diagnostics: [] }),
      // An empty answer rather than UNIMPLEMENTED: the schema lists no functions either.
      GetFunctions: async () => ({ functions: {}, diagnostics: [] }),
      ValidateProviderConfig: (request) => this.validateProviderConfig(request),
      ConfigureProvider: (request) => this.configureProvider(request),
      ValidateResourceConfig: (request) => this.onType(request, "resource", (named) => this.validateConfig(request, "resource", named)),
      ValidateDataResourceConfig: (request) => this.onType(request, "data source", (named) => this.validateConfig(request, "data source", named)),
      UpgradeResourceState: (request) => this.onType(request, "resource", (named) => this.upgradeResourceState(request, named)),
      ReadResource: (request) => this.onType(request, "resource", (named) => this.readResource(request, named)),
      PlanResourceChange: (request) => this.onType(request, "resource", (named) => this.planResourceChange(request, named)),
      ApplyResourceChange: (request) => this.onType(request, "resource", (named) => this.applyResourceChange(request, named)),
      ImportResourceState: (request) => this.onType(request, "resource", (named) => this.importResourceState(request, named)),
      ReadDataSource: (request) => this.onType(request, "data source", (named) => this.readDataSource(request, named)),
      StopProvider: async () => ({ Error: (await this.provider.stop()) ?? "" }),
    };
    const implementation: GrpcJs.UntypedServiceImplementation = {};
    for (const [name, handler] of Object.entries(calls)) {
      implementation[name] = (call: GrpcJs.ServerUnaryCall<Wire, Wire>, callback: GrpcJs.sendUnaryData<Wire>) => {
        const typeName = typeof call.request.type_name === "string" && call.request.type_name !== "" ? ` ${call.request.type_name}` : "";
        this.logger?.log("debug", `${name}${typeName}`);
        this.inFlight++;
        handler(call.request)
          .then(
            (response) => callback(null, response),
            (error: unknown) => {
              // Only a bug in this file gets here (each call turns the provider's errors into diagnostics).
              this.logger?.log("error", `${name}${typeName} failed: ${(error as Error).message}`);
              callback({ code: grpc.status.INTERNAL, details: `${name}${typeName}: ${(error as Error).message}` });
            },
          )
          .finally(() => {
            this.inFlight--;
            if (this.inFlight === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
          });
      };
    }
    return implementation;
  }

  private getMetadata(): Wire {
    const capabilities = { plan_destroy: true, get_provider_schema_optional: false, move_resource_state: false };
    let schema: TfSchema;
    try {
      schema = this.schema();
    } catch (error) {
      return { server_capabilities: capabilities, diagnostics: [errorDiagnostic("The provider's schema could not be built", error)], resources: [], data_sources: [] };
    }
    return {
      server_capabilities: capabilities,
      diagnostics: [],
      resources: Object.keys(schema.resources).map((type_name) => ({ type_name })),
      data_sources: Object.keys(schema.dataSources).map((type_name) => ({ type_name })),
    };
  }

  private getProviderSchema(): Wire {
    const server_capabilities = { plan_destroy: true, get_provider_schema_optional: false, move_resource_state: false };
    let schema: TfSchema;
    try {
      schema = this.schema();
    } catch (error) {
      return { server_capabilities, diagnostics: [errorDiagnostic("The provider's schema could not be built", error)] };
    }
    const map = (blocks: { readonly [name: string]: TfBlock }) => Object.fromEntries(Object.entries(blocks).map(([name, block]) => [name, toProtoSchema(block)]));
    return {
      provider: toProtoSchema(schema.provider),
      resource_schemas: map(schema.resources),
      data_source_schemas: map(schema.dataSources),
      diagnostics: [],
      server_capabilities,
    };
  }

  private async validateProviderConfig(request: Wire): Promise<Wire> {
    return {
      diagnostics: await this.diagnosticsOf(this.schema().provider, async (type) => {
        return this.provider.validateProviderConfig(objectOf(decode(request.config, type), type));
      }),
    };
  }

  private async configureProvider(request: Wire): Promise<Wire> {
    return {
      diagnostics: await this.diagnosticsOf(this.schema().provider, async (type) => {
        return this.provider.configure(objectOf(decode(request.config, type), type), String(request.terraform_version ?? ""));
      }),
    };
  }

  private async validateConfig(request: Wire, kind: "resource" | "data source", { typeName, block }: NamedType): Promise<Wire> {
    return {
      diagnostics: await this.diagnosticsOf(block, async (type) => {
        const config = objectOf(decode(request.config, type), type);
        return kind === "resource" ? this.provider.validateResourceConfig(typeName, config) : this.provider.validateDataSourceConfig(typeName, config);
      }),
    };
  }

  private async upgradeResourceState(request: Wire, { typeName, block, type }: NamedType): Promise<Wire> {
    const version = Number(request.version ?? 0);
    const raw = (request.raw_state ?? {}) as { json?: Uint8Array; flatmap?: Record<string, string> };
    let upgraded: TfValue = null;
    const diagnostics = await this.diagnosticsOf(block, async () => {
      if (!raw.json || raw.json.length === 0) {
        if (raw.flatmap && Object.keys(raw.flatmap).length > 0) {
          return [{ severity: "error", summary: `The state of this ${typeName} is in the flatmap form of Terraform 0.11 and earlier`, detail: "This provider reads JSON state only: upgrade the state with a Terraform release between 0.12 and 1.x first." }];
        }
        return [];
      }
      if (version > block.version) {
        return [{ severity: "error", summary: `The state of this ${typeName} was written by a newer provider`, detail: `Its schema version is ${version}; this provider knows versions up to ${block.version}. Use the provider release that wrote it, or a later one.` }];
      }
      if (version === block.version) {
        // The same schema: read it as it is, dropping attributes a patch release may have removed.
        upgraded = decodeJsonBytes(raw.json, type, { ignoreUndefinedAttributes: true });
        return [];
      }
      const state = JSON.parse(Buffer.from(raw.json).toString("utf8")) as TfObject;
      const answer = await this.provider.upgradeResourceState(typeName, version, state);
      upgraded = answer.state;
      return answer.diagnostics ?? [];
    });
    return { upgraded_state: encodeChecked(upgraded, type, diagnostics), diagnostics };
  }

  private async readResource(request: Wire, { typeName, block, type }: NamedType): Promise<Wire> {
    let answer: { newState: TfValue; private?: Uint8Array } = { newState: null };
    const diagnostics = await this.diagnosticsOf(block, async () => {
      const current = decode(request.current_state, type);
      if (current === null || current === UNKNOWN) return [];
      const response = await this.provider.readResource(typeName, current as TfObject, bytesOrUndefined(request.private));
      answer = response;
      return response.diagnostics ?? [];
    });
    return { new_state: encodeChecked(answer.newState, type, diagnostics), diagnostics, private: Buffer.from(answer.private ?? []) };
  }

  private async planResourceChange(request: Wire, { typeName, block, type }: NamedType): Promise<Wire> {
    let planned: TfValue = null;
    let requiresReplace: readonly TfPath[] = [];
    let plannedPrivate: Uint8Array | undefined;
    const diagnostics = await this.diagnosticsOf(block, async () => {
      const response = await this.provider.planResourceChange({
        typeName,
        priorState: objectOrNull(decode(request.prior_state, type), type),
        proposedNewState: objectOrNull(decode(request.proposed_new_state, type), type),
        config: objectOrNull(decode(request.config, type), type),
        priorPrivate: bytesOrUndefined(request.prior_private),
      });
      planned = response.plannedState;
      requiresReplace = response.requiresReplace ?? [];
      plannedPrivate = response.plannedPrivate;
      return response.diagnostics ?? [];
    });
    return {
      planned_state: encodeChecked(planned, type, diagnostics),
      requires_replace: requiresReplace.map((replacePath) => toAttributePath(replacePath, type)),
      planned_private: Buffer.from(plannedPrivate ?? []),
      diagnostics,
      legacy_type_system: false,
    };
  }

  private async applyResourceChange(request: Wire, { typeName, block, type }: NamedType): Promise<Wire> {
    let answer: { newState: TfValue; private?: Uint8Array } = { newState: null };
    const diagnostics = await this.diagnosticsOf(block, async () => {
      const response = await this.provider.applyResourceChange({
        typeName,
        priorState: objectOrNull(decode(request.prior_state, type), type),
        plannedState: objectOrNull(decode(request.planned_state, type), type),
        config: objectOrNull(decode(request.config, type), type),
        plannedPrivate: bytesOrUndefined(request.planned_private),
      });
      answer = response;
      return response.diagnostics ?? [];
    });
    return { new_state: encodeChecked(answer.newState, type, diagnostics), private: Buffer.from(answer.private ?? []), diagnostics, legacy_type_system: false };
  }

  private async importResourceState(request: Wire, { typeName, block }: NamedType): Promise<Wire> {
    let imported: Wire[] = [];
    const encodeDiagnostics: Wire[] = [];
    const diagnostics = await this.diagnosticsOf(block, async () => {
      const response = await this.provider.importResourceState(typeName, String(request.id ?? ""));
      imported = response.imported.map((entry) => {
        const entryBlock = this.resourceBlock(entry.typeName);
        if (typeof entryBlock === "string") throw new Error(`the import of ${typeName} answered a ${entryBlock}`);
        return { type_name: entry.typeName, state: encodeChecked(entry.state, blockType(entryBlock), encodeDiagnostics), private: Buffer.from(entry.private ?? []) };
      });
      return response.diagnostics ?? [];
    });
    return { imported_resources: imported, diagnostics: [...diagnostics, ...encodeDiagnostics] };
  }

  private async readDataSource(request: Wire, { typeName, block, type }: NamedType): Promise<Wire> {
    let state: TfValue = null;
    const diagnostics = await this.diagnosticsOf(block, async () => {
      const response = await this.provider.readDataSource(typeName, objectOf(decode(request.config, type), type));
      state = response.state;
      return response.diagnostics ?? [];
    });
    return { state: encodeChecked(state, type, diagnostics), diagnostics };
  }

  /**
   * Answers a call on the resource or data source type it names with
   * `answer`, given the type's block; refuses it with an error diagnostic
   * when the provider has no type of that name.
   */
  private async onType(request: Wire, kind: "resource" | "data source", answer: (named: NamedType) => Promise<Wire>): Promise<Wire> {
    const typeName = String(request.type_name);
    const block = kind === "resource" ? this.resourceBlock(typeName) : this.dataSourceBlock(typeName);
    if (typeof block === "string") return { diagnostics: [toProtoDiagnostic({ severity: "error", summary: block })] };
    return answer({ typeName, block, type: blockType(block) });
  }

  /** The block of a resource type, or why there is none (as a diagnostic's summary). */
  private resourceBlock(typeName: string): TfBlock | string {
    return this.schema().resources[typeName] ?? `This provider has no resource type ${JSON.stringify(typeName)} (it has ${Object.keys(this.schema().resources).join(", ") || "none"})`;
  }

  private dataSourceBlock(typeName: string): TfBlock | string {
    return this.schema().dataSources[typeName] ?? `This provider has no data source ${JSON.stringify(typeName)} (it has ${Object.keys(this.schema().dataSources).join(", ") || "none"})`;
  }

  /**
   * Runs one call and turns what it answers, or throws, into the proto's
   * diagnostics: a value that does not fit the schema points at its attribute.
   */
  private async diagnosticsOf(block: TfBlock, run: (type: TfType) => Promise<readonly Diagnostic[]>): Promise<Wire[]> {
    const type = blockType(block);
    try {
      return (await run(type)).map((diagnostic) => toProtoDiagnostic(diagnostic, type));
    } catch (error) {
      if (error instanceof TfCodecError) return [codecDiagnostic(error, type, "A value does not fit the provider's schema")];
      this.logger?.log("error", `the provider failed: ${(error as Error).message}`);
      return [errorDiagnostic("The provider failed", error)];
    }
  }
}

function decode(value: unknown, type: TfType): TfValue {
  return decodeDynamicValue(value as WireDynamicValue | null | undefined, type);
}

/** A block's values: an object of its attributes. */
export function blockType(block: TfBlock): TfType {
  return ["object", Object.fromEntries(Object.entries(block.attributes).map(([name, attribute]) => [name, attribute.type]))];
}

/** A config whose whole value is null or unknown, as an object whose attributes all are (the calls take objects). */
function objectOf(value: TfValue, type: TfType): TfObject {
  if (value !== null && value !== UNKNOWN && typeof value === "object" && !Array.isArray(value)) return value as TfObject;
  const attributes = Array.isArray(type) && type[0] === "object" ? Object.keys(type[1] as object) : [];
  return Object.fromEntries(attributes.map((name) => [name, value === UNKNOWN ? UNKNOWN : null]));
}

/** A state or config that may be absent (null: a create's prior state, a destroy's planned one). */
function objectOrNull(value: TfValue, type: TfType): TfObject | null {
  return value === null ? null : objectOf(value, type);
}

/**
 * Encodes an answer's value; one that does not fit the schema becomes an
 * error diagnostic naming the attribute (and a null value), not a failed call.
 */
function encodeChecked(value: TfValue, type: TfType, diagnostics: Wire[]): { msgpack: Buffer } {
  try {
    return encodeDynamicValue(value ?? null, type);
  } catch (error) {
    if (!(error instanceof TfCodecError)) throw error;
    diagnostics.push(codecDiagnostic(error, type, "The provider answered a value that does not fit its schema"));
    return encodeDynamicValue(null, type);
  }
}

function codecDiagnostic(error: TfCodecError, type: TfType, summary: string): Wire {
  return toProtoDiagnostic({ severity: "error", summary, detail: error.message, attribute: error.path.length > 0 ? error.path : undefined }, type);
}

function bytesOrUndefined(value: unknown): Uint8Array | undefined {
  return value instanceof Uint8Array && value.length > 0 ? value : undefined;
}

/** A block as the proto's Schema: the version, and attributes with their types as JSON bytes and Markdown descriptions. */
export function toProtoSchema(block: TfBlock): Wire {
  return {
    version: block.version,
    block: {
      version: block.version,
      description: block.description,
      description_kind: "MARKDOWN",
      deprecated: false,
      block_types: [],
      attributes: Object.entries(block.attributes)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, attribute]) => ({
          name,
          type: typeJson(attribute.type),
          description: attribute.description,
          description_kind: "MARKDOWN",
          required: attribute.required ?? false,
          optional: attribute.optional ?? false,
          computed: attribute.computed ?? false,
          sensitive: attribute.sensitive ?? false,
          deprecated: attribute.deprecated ?? false,
        })),
    },
  };
}

/** A diagnostic as the proto's, its path read against the block's type when there is one. */
export function toProtoDiagnostic(diagnostic: Diagnostic, type?: TfType): Wire {
  return {
    severity: diagnostic.severity === "error" ? "ERROR" : "WARNING",
    summary: diagnostic.summary,
    detail: diagnostic.detail ?? "",
    attribute: diagnostic.attribute && diagnostic.attribute.length > 0 ? toAttributePath(diagnostic.attribute, type) : null,
  };
}

function errorDiagnostic(summary: string, error: unknown): Wire {
  return toProtoDiagnostic({ severity: "error", summary, detail: error instanceof Error ? error.message : String(error) });
}

/**
 * A path as the proto's AttributePath: object attributes by name, map keys as
 * string keys, list indexes as int keys. With the type, a string under a map
 * is a key, not an attribute; without it, strings are attributes.
 *
 * @example
 * toAttributePath(["tags", "env"], ["object", { tags: ["map", "string"] }]);
 * // { steps: [{ attribute_name: "tags" }, { element_key_string: "env" }] }
 */
export function toAttributePath(steps: TfPath, type?: TfType): { steps: Wire[] } {
  let current: TfType | undefined = type;
  const out: Wire[] = [];
  for (const step of steps) {
    const kind = Array.isArray(current) ? (current as readonly [string, unknown])[0] : undefined;
    if (kind === "map") {
      out.push({ element_key_string: String(step) });
      current = (current as readonly ["map", TfType])[1];
    } else if (kind === "list" || kind === "set") {
      out.push(typeof step === "number" ? { element_key_int: step } : { element_key_string: step });
      current = (current as readonly ["list", TfType])[1];
    } else if (typeof step === "number") {
      out.push({ element_key_int: step });
      current = undefined;
    } else {
      out.push({ attribute_name: step });
      current = kind === "object" ? (current as readonly ["object", { readonly [name: string]: TfType }])[1][step] : undefined;
    }
  }
  return { steps: out };
}

/** How often the provider looks whether the process that started it is still there. */
export const PARENT_CHECK_INTERVAL_MS = 1_000;

export interface ParentWatchOptions {
  /** The parent to watch (this process's at start unless told). */
  readonly ppid?: number;
  /** This process's parent now (changes when the parent dies and the process is reparented). */
  readonly currentPpid?: () => number;
  /** Whether a process exists. */
  readonly alive?: (pid: number) => boolean;
  readonly intervalMs?: number;
}

/**
 * Calls `onGone` once when the process that started this one is gone: this
 * process was reparented, or the parent's pid answers no signal. A SIGKILLed
 * `terraform apply` sends neither Shutdown nor a signal to its providers;
 * without this, a provider would serve an empty socket forever. The timer
 * does not keep the process alive by itself. Returns a function that stops
 * watching.
 *
 * @example
 * watchParent(() => close("Terraform is gone"));
 */
export function watchParent(onGone: () => void, options: ParentWatchOptions = {}): () => void {
  const ppid = options.ppid ?? process.ppid;
  // Started by init (or a container's PID 1): there is no parent to outlive.
  if (ppid <= 1) return () => undefined;
  const currentPpid = options.currentPpid ?? (() => process.ppid);
  const alive = options.alive ?? processExists;
  const timer = setInterval(() => {
    // The ppid check first: a killed parent not yet reaped is a zombie, which still answers signal 0.
    if (currentPpid() === ppid && alive(ppid)) return;
    clearInterval(timer);
    onGone();
  }, options.intervalMs ?? PARENT_CHECK_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface ServeOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly stdout?: NodeJS.WritableStream;
  /** Exits the process (tests replace it). */
  readonly exit?: (code: number) => void;
  readonly program?: string;
  /** How the process that started this one is watched (tests replace it); `false`: not watched. */
  readonly parent?: ParentWatchOptions | false;
}

/** A running provider process's server. */
export interface ServedTerraform {
  readonly server: GrpcJs.Server;
  readonly socketPath: string;
  readonly services: TerraformServices;
}

/**
 * Runs the provider process: checks Terraform's handshake environment
 * (throws a HandshakeError the caller prints), makes the TLS identity,
 * serves on a fresh unix socket, prints the handshake line, and exits after
 * Shutdown or SIGTERM, or once the process that started it is gone, when no
 * call is running (a purchase in flight finishes and is journaled first).
 * SIGINT is ignored: Terraform sends Ctrl-C to the whole group and then
 * StopProvider.
 */
export async function serveTerraform(createProvider: () => TerraformProvider, options: ServeOptions = {}): Promise<ServedTerraform> {
  const env = options.env ?? process.env;
  const stdout = options.stdout ?? process.stdout;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const settings = readHandshakeEnv(env, options.program);
  const logger = hclogLogger();
  routeConsole(logger);

  const provider = createProvider();
  let closing = false;
  const close = (why: string) => {
    if (closing) return;
    closing = true;
    logger.log("debug", `${why}: exiting once the ${services.running} call(s) in flight finish`);
    void services.whenIdle().then(() => {
      // Graceful, so that Shutdown's own answer reaches Terraform; forced if a connection lingers.
      services.endStreams();
      const force = setTimeout(() => {
        logger.log("warn", "a connection was still open 2 s after the last call: closed by force");
        server.forceShutdown();
        exit(0);
      }, 2000);
      server.tryShutdown(() => {
        clearTimeout(force);
        exit(0);
      });
    });
  };
  const services = new TerraformServices(provider, { logger, onShutdown: () => close("Shutdown") });
  const server = new grpc.Server({ "grpc.max_receive_message_length": MAX_MESSAGE_BYTES, "grpc.max_send_message_length": MAX_MESSAGE_BYTES });
  services.addTo(server);

  let credentials: GrpcJs.ServerCredentials;
  let certDer: Buffer | undefined;
  if (settings.tlsDisabled) {
    credentials = grpc.ServerCredentials.createInsecure();
  } else {
    const certificate = await generateServerCertificate();
    certDer = certificate.certDer;
    // Only Terraform's own certificate may connect (go-plugin's AutoMTLS).
    credentials = grpc.ServerCredentials.createSsl(Buffer.from(settings.clientCertPem!), [{ cert_chain: Buffer.from(certificate.certPem), private_key: Buffer.from(certificate.keyPem) }], true);
  }
  const socketPath = path.join(makeSocketDir(), "plugin.sock");
  await new Promise<void>((resolve, reject) => server.bindAsync(`unix:${socketPath}`, credentials, (error) => (error ? reject(error) : resolve())));

  process.on("SIGINT", () => logger.log("debug", "SIGINT ignored: Terraform sends StopProvider"));
  process.on("SIGTERM", () => {
    logger.log("info", "SIGTERM: stopping the provider");
    void provider
      .stop()
      .catch((error: unknown) => logger.log("error", `stopping the provider failed: ${(error as Error).message}`))
      .finally(() => close("SIGTERM"));
  });

  if (options.parent !== false) watchParent(() => close("the process that started the provider (terraform or tofu) is gone"), options.parent);

  stdout.write(`${handshakeLine(socketPath, certDer)}\n`);
  logger.log("debug", "serving plugin protocol 6", { socket: socketPath, tls: !settings.tlsDisabled });
  return { server, socketPath, services };
}
