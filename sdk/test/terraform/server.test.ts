// The tfplugin6 services through a real gRPC client, with a small in-test
// TerraformProvider: each call's values decoded with the schema and its
// answers encoded, diagnostics with their attribute paths, UNIMPLEMENTED for
// the calls the contract does not cover, and go-plugin's services.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decode, encode } from "@msgpack/msgpack";
import type * as GrpcJs from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN, type ApplyRequest, type PlanRequest, type TerraformProvider, type TfObject, type TfSchema } from "../../src/terraform/contract.js";
import { decodeMsgpack, encodeMsgpack } from "../../src/terraform/codec.js";
import { loadTerraformProtos, TerraformServices, toAttributePath } from "../../src/terraform/server.js";

const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] })) as typeof GrpcJs;

const SCHEMA: TfSchema = {
  provider: { version: 0, description: "The provider.", attributes: { api_key: { type: "string", description: "Key.", optional: true, sensitive: true } } },
  resources: {
    certreseller_thing: {
      version: 2,
      description: "A **thing**.",
      attributes: {
        id: { type: "string", description: "Id.", computed: true },
        name: { type: "string", description: "Name.", required: true },
        count: { type: "number", description: "Count.", optional: true },
        tags: { type: ["map", "string"], description: "Tags.", optional: true },
        items: { type: ["list", ["object", { host: "string", port: "number" }]], description: "Items.", optional: true },
      },
    },
  },
  dataSources: { certreseller_info: { version: 0, description: "Info.", attributes: { query: { type: "string", description: "Q.", required: true }, answer: { type: "string", description: "A.", computed: true } } } },
};
const THING = ["object", { id: "string", name: "string", count: "number", tags: ["map", "string"], items: ["list", ["object", { host: "string", port: "number" }]] }] as const;
const PROVIDER_TYPE = ["object", { api_key: "string" }] as const;
const INFO = ["object", { query: "string", answer: "string" }] as const;

/** What the in-test provider was called with, by call. */
const seen: Record<string, unknown[]> = {};
const record = (name: string, ...args: unknown[]) => (seen[name] ??= []).push(args);
let releaseSlowCall: (() => void) | undefined;

const provider: TerraformProvider = {
  schema: () => SCHEMA,
  async validateProviderConfig(config) {
    record("validateProviderConfig", config);
    return config.api_key === "bad" ? [{ severity: "error", summary: "The key is malformed", attribute: ["api_key"] }] : [];
  },
  async configure(config, version) {
    record("configure", config, version);
    return [{ severity: "warning", summary: "Configured", detail: `with Terraform ${version}` }];
  },
  async validateResourceConfig(typeName, config) {
    record("validateResourceConfig", typeName, config);
    return [
      { severity: "error", summary: "Bad tag", attribute: ["tags", "env"] },
      { severity: "error", summary: "Bad port", attribute: ["items", 1, "port"] },
    ];
  },
  async validateDataSourceConfig(typeName, config) {
    record("validateDataSourceConfig", typeName, config);
    return [];
  },
  async upgradeResourceState(typeName, version, state) {
    record("upgradeResourceState", typeName, version, state);
    return { state: { id: state.id as string, name: (state.old_name as string) ?? "?" } };
  },
  async planResourceChange(request: PlanRequest) {
    record("planResourceChange", request);
    if (request.proposedNewState === null) return { plannedState: null };
    if (request.proposedNewState.name === "throw") throw new Error("the plan broke");
    if (request.proposedNewState.name === "misfit") return { plannedState: { ...request.proposedNewState, count: "three" } as unknown as TfObject };
    return {
      plannedState: { ...request.proposedNewState, id: request.priorState === null ? UNKNOWN : request.priorState.id },
      requiresReplace: request.priorState === null ? [] : [["name"], ["tags", "env"], ["items", 0, "host"]],
      plannedPrivate: Buffer.from("plan-private"),
    };
  },
  async applyResourceChange(request: ApplyRequest) {
    record("applyResourceChange", request);
    if (request.plannedState === null) return { newState: null };
    if (request.plannedState.name === "slow") await new Promise<void>((resolve) => (releaseSlowCall = resolve));
    return { newState: { ...request.plannedState, id: "thing-1" }, private: Buffer.from("apply-private") };
  },
  async readResource(typeName, state, priv) {
    record("readResource", typeName, state, priv && Buffer.from(priv).toString());
    return state.id === "gone" ? { newState: null } : { newState: { ...state, count: 2.5 }, private: priv };
  },
  async importResourceState(typeName, id) {
    record("importResourceState", typeName, id);
    return { imported: [{ typeName, state: { id, name: "imported" } }] };
  },
  async readDataSource(typeName, config) {
    record("readDataSource", typeName, config);
    return { state: { ...config, answer: `for ${config.query as string}` } };
  },
  async stop() {
    record("stop");
    return "stopping: one order in flight";
  },
};

type Client = GrpcJs.Client & Record<string, (request: unknown, callback: (error: GrpcJs.ServiceError | null, response: Record<string, unknown>) => void) => void>;
let server: GrpcJs.Server;
let services: TerraformServices;
let dir: string;
let providerClient: Client;
let healthClient: Client;
let controllerClient: Client;
let shutdowns = 0;

const call = (client: Client, method: string, request: unknown = {}) =>
  new Promise<Record<string, any>>((resolve, reject) => client[method]!(request, (error, response) => (error ? reject(error) : resolve(response))));
const dv = (value: Parameters<typeof encodeMsgpack>[0], type: Parameters<typeof encodeMsgpack>[1]) => ({ msgpack: encodeMsgpack(value, type) });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tfcr-test-"));
  const socket = path.join(dir, "s.sock");
  server = new grpc.Server();
  services = new TerraformServices(provider, { onShutdown: () => shutdowns++ });
  services.addTo(server);
  await new Promise<void>((resolve, reject) => server.bindAsync(`unix:${socket}`, grpc.ServerCredentials.createInsecure(), (error) => (error ? reject(error) : resolve())));
  const packages = loadTerraformProtos().packages as any;
  const credentials = grpc.credentials.createInsecure();
  providerClient = new packages.tfplugin6.Provider(`unix:${socket}`, credentials);
  healthClient = new packages.grpc.health.v1.Health(`unix:${socket}`, credentials);
  controllerClient = new packages.plugin.GRPCController(`unix:${socket}`, credentials);
});

afterAll(() => {
  providerClient?.close();
  healthClient?.close();
  controllerClient?.close();
  server?.forceShutdown();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("schema calls", () => {
  it("GetProviderSchema: each block, attribute types as JSON bytes, Markdown descriptions, the capabilities", async () => {
    const response = await call(providerClient, "GetProviderSchema");
    expect(response.diagnostics).toEqual([]);
    expect(response.server_capabilities).toMatchObject({ plan_destroy: true, get_provider_schema_optional: false });
    expect(Object.keys(response.resource_schemas)).toEqual(["certreseller_thing"]);
    expect(Object.keys(response.data_source_schemas)).toEqual(["certreseller_info"]);
    const thing = response.resource_schemas.certreseller_thing;
    expect(thing.version).toBe(2);
    expect(thing.block).toMatchObject({ version: 2, description: "A **thing**.", description_kind: "MARKDOWN" });
    const attributes = Object.fromEntries(thing.block.attributes.map((a: any) => [a.name, a]));
    expect(Object.keys(attributes)).toEqual(["count", "id", "items", "name", "tags"]);
    expect(JSON.parse(Buffer.from(attributes.items.type).toString())).toEqual(["list", ["object", { host: "string", port: "number" }]]);
    expect(attributes.id).toMatchObject({ computed: true, required: false, optional: false, description: "Id.", description_kind: "MARKDOWN" });
    expect(attributes.name).toMatchObject({ required: true });
    expect(response.provider.block.attributes[0]).toMatchObject({ name: "api_key", sensitive: true, optional: true });
  });

  it("GetMetadata: resources and data sources by name, plan_destroy", async () => {
    const response = await call(providerClient, "GetMetadata");
    expect(response.resources).toEqual([{ type_name: "certreseller_thing" }]);
    expect(response.data_sources).toEqual([{ type_name: "certreseller_info" }]);
    expect(response.server_capabilities).toMatchObject({ plan_destroy: true, get_provider_schema_optional: false });
  });

  it("GetResourceIdentitySchemas and GetFunctions: empty", async () => {
    expect((await call(providerClient, "GetResourceIdentitySchemas")).identity_schemas).toEqual({});
    expect((await call(providerClient, "GetFunctions")).functions).toEqual({});
  });
});

describe("configuration calls", () => {
  it("ValidateProviderConfig: the config decoded, a diagnostic with its attribute", async () => {
    const response = await call(providerClient, "ValidateProviderConfig", { config: dv({ api_key: "bad" }, PROVIDER_TYPE) });
    expect(response.diagnostics).toEqual([{ severity: "ERROR", summary: "The key is malformed", detail: "", attribute: { steps: [{ attribute_name: "api_key", selector: "attribute_name" }] } }]);
  });

  it("ConfigureProvider: the config (unknown kept) and Terraform's version", async () => {
    const response = await call(providerClient, "ConfigureProvider", { terraform_version: "1.13.0", config: dv({ api_key: UNKNOWN }, PROVIDER_TYPE) });
    expect(seen.configure!.at(-1)).toEqual([{ api_key: UNKNOWN }, "1.13.0"]);
    expect(response.diagnostics[0]).toMatchObject({ severity: "WARNING", summary: "Configured", detail: "with Terraform 1.13.0" });
  });

  it("ValidateResourceConfig: map keys and list indexes in the paths, read against the schema", async () => {
    const response = await call(providerClient, "ValidateResourceConfig", { type_name: "certreseller_thing", config: dv({ name: "n", tags: { env: "x" } }, THING) });
    expect(seen.validateResourceConfig!.at(-1)).toEqual(["certreseller_thing", { id: null, name: "n", count: null, tags: { env: "x" }, items: null }]);
    expect(response.diagnostics.map((d: any) => d.attribute.steps.map((s: any) => s[s.selector]))).toEqual([
      ["tags", "env"],
      ["items", 1, "port"],
    ]);
    expect(response.diagnostics[0].attribute.steps.map((s: any) => s.selector)).toEqual(["attribute_name", "element_key_string"]);
    expect(response.diagnostics[1].attribute.steps.map((s: any) => s.selector)).toEqual(["attribute_name", "element_key_int", "attribute_name"]);
  });

  it("ValidateDataResourceConfig, and an unknown type name as an error diagnostic", async () => {
    expect((await call(providerClient, "ValidateDataResourceConfig", { type_name: "certreseller_info", config: dv({ query: "q" }, INFO) })).diagnostics).toEqual([]);
    const response = await call(providerClient, "ValidateResourceConfig", { type_name: "certreseller_nope", config: dv({}, THING) });
    expect(response.diagnostics[0]).toMatchObject({ severity: "ERROR", summary: 'This provider has no resource type "certreseller_nope" (it has certreseller_thing)' });
  });
});

describe("resource calls", () => {
  it("PlanResourceChange, a create: prior state null, the unknown id encoded as go-cty's unknown", async () => {
    const response = await call(providerClient, "PlanResourceChange", {
      type_name: "certreseller_thing",
      prior_state: { msgpack: Buffer.from([0xc0]) },
      proposed_new_state: dv({ name: "a", id: UNKNOWN }, THING),
      config: dv({ name: "a" }, THING),
    });
    const request = seen.planResourceChange!.at(-1)![0] as PlanRequest;
    expect(request.priorState).toBeNull();
    expect(request.proposedNewState).toEqual({ id: UNKNOWN, name: "a", count: null, tags: null, items: null });
    expect(request.priorPrivate).toBeUndefined();
    expect(response.diagnostics).toEqual([]);
    expect(decodeMsgpack(response.planned_state.msgpack, THING)).toEqual({ id: UNKNOWN, name: "a", count: null, tags: null, items: null });
    // The raw bytes: every attribute present, the id as fixext1 type 0.
    const raw = decode(response.planned_state.msgpack) as Record<string, unknown>;
    expect(Object.keys(raw).sort()).toEqual(["count", "id", "items", "name", "tags"]);
    expect(Buffer.from(response.planned_state.msgpack).includes(Buffer.from([0xa2, 0x69, 0x64, 0xd4, 0x00, 0x00]))).toBe(true);
    expect(Buffer.from(response.planned_private).toString()).toBe("plan-private");
  });

  it("PlanResourceChange, an update: the requires-replace paths and the prior private", async () => {
    const prior = { id: "thing-1", name: "a", count: 1, tags: { env: "a" }, items: [{ host: "h", port: 1 }] };
    const response = await call(providerClient, "PlanResourceChange", {
      type_name: "certreseller_thing",
      prior_state: dv(prior, THING),
      proposed_new_state: dv({ ...prior, name: "b" }, THING),
      config: dv({ ...prior, name: "b", id: null }, THING),
      prior_private: Buffer.from("p"),
    });
    expect(Buffer.from((seen.planResourceChange!.at(-1)![0] as PlanRequest).priorPrivate!).toString()).toBe("p");
    expect(response.requires_replace.map((p: any) => p.steps.map((s: any) => ({ [s.selector]: s[s.selector] })))).toEqual([
      [{ attribute_name: "name" }],
      [{ attribute_name: "tags" }, { element_key_string: "env" }],
      [{ attribute_name: "items" }, { element_key_int: 0 }, { attribute_name: "host" }],
    ]);
  });

  it("PlanResourceChange, a destroy: proposed null in, planned null (msgpack nil) out", async () => {
    const response = await call(providerClient, "PlanResourceChange", { type_name: "certreseller_thing", prior_state: dv({ id: "x", name: "a" }, THING), proposed_new_state: dv(null, THING), config: dv(null, THING) });
    expect((seen.planResourceChange!.at(-1)![0] as PlanRequest).proposedNewState).toBeNull();
    expect(Buffer.from(response.planned_state.msgpack).toString("hex")).toBe("c0");
  });

  it("a provider that throws gives an error diagnostic; a value that does not fit the schema names its attribute", async () => {
    const thrown = await call(providerClient, "PlanResourceChange", { type_name: "certreseller_thing", prior_state: dv(null, THING), proposed_new_state: dv({ name: "throw" }, THING), config: dv({ name: "throw" }, THING) });
    expect(thrown.diagnostics).toEqual([expect.objectContaining({ severity: "ERROR", summary: "The provider failed", detail: "the plan broke" })]);
    const misfit = await call(providerClient, "PlanResourceChange", { type_name: "certreseller_thing", prior_state: dv(null, THING), proposed_new_state: dv({ name: "misfit" }, THING), config: dv({ name: "misfit" }, THING) });
    expect(misfit.diagnostics[0]).toMatchObject({ severity: "ERROR", summary: "The provider answered a value that does not fit its schema", detail: "count: expected a number, got a string of 5 characters", attribute: { steps: [{ attribute_name: "count" }] } });
    const badBytes = await call(providerClient, "ValidateResourceConfig", { type_name: "certreseller_thing", config: { msgpack: encode({ name: 5 }) } });
    expect(badBytes.diagnostics[0]).toMatchObject({ detail: "name: expected a string, got the number 5", attribute: { steps: [{ attribute_name: "name" }] } });
  });

  it("ApplyResourceChange: a create's new state and private; a destroy's null", async () => {
    const created = await call(providerClient, "ApplyResourceChange", { type_name: "certreseller_thing", prior_state: dv(null, THING), planned_state: dv({ name: "a", id: UNKNOWN }, THING), config: dv({ name: "a" }, THING), planned_private: Buffer.from("plan-private") });
    const request = seen.applyResourceChange!.at(-1)![0] as ApplyRequest;
    expect(Buffer.from(request.plannedPrivate!).toString()).toBe("plan-private");
    expect(decodeMsgpack(created.new_state.msgpack, THING)).toEqual({ id: "thing-1", name: "a", count: null, tags: null, items: null });
    expect(Buffer.from(created.private).toString()).toBe("apply-private");
    const destroyed = await call(providerClient, "ApplyResourceChange", { type_name: "certreseller_thing", prior_state: dv({ id: "thing-1", name: "a" }, THING), planned_state: dv(null, THING), config: dv(null, THING) });
    expect((seen.applyResourceChange!.at(-1)![0] as ApplyRequest).plannedState).toBeNull();
    expect(Buffer.from(destroyed.new_state.msgpack).toString("hex")).toBe("c0");
  });

  it("ReadResource: the state and private in, the new state out (a float as float64); gone is null", async () => {
    const response = await call(providerClient, "ReadResource", { type_name: "certreseller_thing", current_state: dv({ id: "thing-1", name: "a", count: 1 }, THING), private: Buffer.from("priv") });
    expect(seen.readResource!.at(-1)).toEqual(["certreseller_thing", { id: "thing-1", name: "a", count: 1, tags: null, items: null }, "priv"]);
    expect(decodeMsgpack(response.new_state.msgpack, THING)).toMatchObject({ count: 2.5 });
    expect(Buffer.from(response.private).toString()).toBe("priv");
    const gone = await call(providerClient, "ReadResource", { type_name: "certreseller_thing", current_state: dv({ id: "gone", name: "a" }, THING) });
    expect(Buffer.from(gone.new_state.msgpack).toString("hex")).toBe("c0");
  });

  it("ImportResourceState: each imported object encoded with its type's schema", async () => {
    const response = await call(providerClient, "ImportResourceState", { type_name: "certreseller_thing", id: "ord-7" });
    expect(response.imported_resources).toHaveLength(1);
    expect(response.imported_resources[0].type_name).toBe("certreseller_thing");
    expect(decodeMsgpack(response.imported_resources[0].state.msgpack, THING)).toEqual({ id: "ord-7", name: "imported", count: null, tags: null, items: null });
  });

  it("UpgradeResourceState: the same version is read as JSON (a dropped attribute ignored); an older one goes to the provider; flatmap and newer are refused", async () => {
    const same = await call(providerClient, "UpgradeResourceState", { type_name: "certreseller_thing", version: 2, raw_state: { json: Buffer.from(JSON.stringify({ id: "t", name: "n", count: 3, removed_later: true })) } });
    expect(same.diagnostics).toEqual([]);
    expect(decodeMsgpack(same.upgraded_state.msgpack, THING)).toEqual({ id: "t", name: "n", count: 3, tags: null, items: null });
    const older = await call(providerClient, "UpgradeResourceState", { type_name: "certreseller_thing", version: 1, raw_state: { json: Buffer.from(JSON.stringify({ id: "t", old_name: "n1" })) } });
    expect(seen.upgradeResourceState!.at(-1)).toEqual(["certreseller_thing", 1, { id: "t", old_name: "n1" }]);
    expect(decodeMsgpack(older.upgraded_state.msgpack, THING)).toEqual({ id: "t", name: "n1", count: null, tags: null, items: null });
    const flatmap = await call(providerClient, "UpgradeResourceState", { type_name: "certreseller_thing", version: 0, raw_state: { flatmap: { id: "t" } } });
    expect(flatmap.diagnostics[0].summary).toMatch(/flatmap form of Terraform 0\.11/);
    const newer = await call(providerClient, "UpgradeResourceState", { type_name: "certreseller_thing", version: 3, raw_state: { json: Buffer.from("{}") } });
    expect(newer.diagnostics[0]).toMatchObject({ summary: "The state of this certreseller_thing was written by a newer provider", detail: expect.stringMatching(/schema version is 3; this provider knows versions up to 2/) });
  });

  it("ReadDataSource: the config in, the state out", async () => {
    const response = await call(providerClient, "ReadDataSource", { type_name: "certreseller_info", config: dv({ query: "q", answer: UNKNOWN }, INFO) });
    expect(decodeMsgpack(response.state.msgpack, INFO)).toEqual({ query: "q", answer: "for q" });
  });

  it("a JSON DynamicValue is read too", async () => {
    await call(providerClient, "ValidateDataResourceConfig", { type_name: "certreseller_info", config: { json: Buffer.from('{"query":"from json"}') } });
    expect(seen.validateDataSourceConfig!.at(-1)).toEqual(["certreseller_info", { query: "from json", answer: null }]);
  });
});

describe("the rest", () => {
  it.each(["CallFunction", "MoveResourceState", "ValidateEphemeralResourceConfig", "OpenEphemeralResource", "UpgradeResourceIdentity", "ValidateListResourceConfig", "PlanAction", "ValidateActionConfig"])("%s is UNIMPLEMENTED", async (method) => {
    await expect(call(providerClient, method)).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
  });

  it("StopProvider calls stop and answers its text", async () => {
    const response = await call(providerClient, "StopProvider");
    expect(response.Error).toBe("stopping: one order in flight");
    expect(seen.stop).toHaveLength(1);
  });

  it("Health/Check: SERVING for plugin and the server, NOT_FOUND for another service", async () => {
    expect((await call(healthClient, "Check", { service: "plugin" })).status).toBe("SERVING");
    expect((await call(healthClient, "Check", { service: "" })).status).toBe("SERVING");
    await expect(call(healthClient, "Check", { service: "other" })).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
  });

  it("whenIdle waits for a long call in flight", async () => {
    const pending = call(providerClient, "ApplyResourceChange", { type_name: "certreseller_thing", prior_state: dv(null, THING), planned_state: dv({ name: "slow" }, THING), config: dv({ name: "slow" }, THING) });
    while (releaseSlowCall === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(services.running).toBe(1);
    let idle = false;
    const waiting = services.whenIdle().then(() => (idle = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(idle).toBe(false);
    releaseSlowCall();
    await pending;
    await waiting;
    expect(services.running).toBe(0);
  });

  it("Controller/Shutdown is answered, then reported", async () => {
    await call(controllerClient, "Shutdown");
    await new Promise((resolve) => setImmediate(resolve));
    expect(shutdowns).toBe(1);
  });
});

describe("toAttributePath", () => {
  it("without a type: strings are attribute names, numbers indexes", () => {
    expect(toAttributePath(["a", 0, "b"]).steps).toEqual([{ attribute_name: "a" }, { element_key_int: 0 }, { attribute_name: "b" }]);
  });
});
