// Where a checkpoint's bytes are: by resource kind (the graph's name
// prefixes: order, validation, dns, cert), and within a kind by part
// (provider text, secret ciphertext, other inputs and outputs, engine
// metadata) and by output, in the checkpoint file's own encoding (secrets as
// ciphertext), per resource, a real graph (the dynamic or the plugin path)
// against the no-op graph. BENCH_STATE_DUMP=<file> also writes the dynamic
// path's deployment there, and the plugin path's beside it (`<file>` with
// `.plugin` before its extension), to read by hand.
import * as path from "node:path";
import * as fs from "node:fs";
import * as pulumi from "@pulumi/pulumi";

/** Pulumi's marker of a secret value in a checkpoint: the key of `{ [specialSigKey]: specialSecretSig, ciphertext }`. */
const SECRET_SIG_KEY = pulumi.runtime.specialSigKey;

interface StateResource {
  urn: string;
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  [key: string]: unknown;
}

interface KindTotals {
  count: number;
  total: number;
  providerText: number;
  secretCiphertext: number;
  inputs: number;
  outputs: number;
  /** `sourcePosition` and `stackTrace`: where the program registered the resource. */
  sourcePositions: number;
  /** `dependencies` and `propertyDependencies`: URNs. */
  dependencies: number;
  metadata: number;
  /** Bytes per output name (`"name":value,`), and whether that value is also an input of the resource, or a secret. */
  byOutput: Map<string, { bytes: number; sameAsInput: number; secret: boolean }>;
}

const size = (value: unknown) => (value === undefined ? 0 : JSON.stringify(value).length);
const memberSize = (key: string, value: unknown) => size(key) + 1 + size(value) + 1;
/** Bytes of `"key":value,` in `object`, 0 when absent. */
const member = (object: Record<string, unknown>, key: string) => (object[key] === undefined ? 0 : memberSize(key, object[key]));

function kindOf(resource: StateResource): string {
  const name = resource.urn.split("::").at(-1) ?? "";
  const prefix = /^(order|validation|dns|cert)-\d+$/.exec(name)?.[1];
  if (prefix) return prefix;
  return resource.type.startsWith("pulumi:providers:") ? "provider" : resource.type;
}

function isSecret(value: unknown): value is { ciphertext?: string } {
  return typeof value === "object" && value !== null && SECRET_SIG_KEY in value;
}

/** Bytes of secret envelopes (marker + ciphertext) anywhere inside `value`. */
function secretBytes(value: unknown): number {
  if (isSecret(value)) return size(value);
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + secretBytes(v), 0);
  if (typeof value === "object" && value !== null) return Object.values(value).reduce((n: number, v) => n + secretBytes(v), 0);
  return 0;
}

/** The resources of a deployment (`pulumi stack export`'s `deployment`). */
function resourcesOf(deployment: unknown): StateResource[] {
  return (deployment as { resources?: StateResource[] }).resources ?? [];
}

function totals(deployment: unknown): Map<string, KindTotals> {
  const resources = resourcesOf(deployment);
  const kinds = new Map<string, KindTotals>();
  for (const resource of resources) {
    const kind = kindOf(resource);
    let t = kinds.get(kind);
    if (!t) {
      t = { count: 0, total: 0, providerText: 0, secretCiphertext: 0, inputs: 0, outputs: 0, sourcePositions: 0, dependencies: 0, metadata: 0, byOutput: new Map() };
      kinds.set(kind, t);
    }
    t.count++;
    const whole = size(resource);
    t.total += whole;
    const inputs = resource.inputs ?? {};
    const outputs = resource.outputs ?? {};
    t.providerText += member(inputs, "__provider") + member(outputs, "__provider");
    t.secretCiphertext += secretBytes(inputs) + secretBytes(outputs);
    const inputBytes = size(inputs) - member(inputs, "__provider");
    const outputBytes = size(outputs) - member(outputs, "__provider");
    t.inputs += inputBytes - secretBytes(inputs);
    t.outputs += outputBytes - secretBytes(outputs);
    const positions = member(resource, "sourcePosition") + member(resource, "stackTrace");
    const dependencies = member(resource, "dependencies") + member(resource, "propertyDependencies");
    t.sourcePositions += positions;
    t.dependencies += dependencies;
    t.metadata += whole - size(inputs) - size(outputs) - positions - dependencies;
    for (const [name, value] of Object.entries(outputs)) {
      if (name === "__provider") continue;
      const entry = t.byOutput.get(name) ?? { bytes: 0, sameAsInput: 0, secret: false };
      const bytes = memberSize(name, value);
      entry.bytes += bytes;
      if (!isSecret(value) && name in inputs && JSON.stringify(inputs[name]) === JSON.stringify(value)) entry.sameAsInput += bytes;
      entry.secret ||= isSecret(value);
      t.byOutput.set(name, entry);
    }
  }
  return kinds;
}

/** Bytes of outputs stored with the same value as the same-named input. */
function echoes(t: KindTotals): number {
  return [...t.byOutput.values()].reduce((n, e) => n + e.sameAsInput, 0);
}

/** JSON object members anywhere inside `value`: each is a map entry the engine encodes on every checkpoint. */
function members(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + members(v), 0);
  if (typeof value === "object" && value !== null) return Object.values(value).reduce((n: number, v) => n + 1 + members(v), 0);
  return 0;
}

/**
 * Stored values per certificate: the object members of every resource in a
 * checkpoint's deployment (inputs, outputs, property dependencies, the
 * engine's own fields; secrets as their envelope), over `count`. The engine
 * re-encodes the whole checkpoint after every step, member by member, so its
 * `up` and `destroy` follow this count more than the bytes (docs/benchmarks.md).
 *
 * @example
 * storedValuesPerCertificate(deployment, 100) // 179 for the dynamic path in November 2026
 */
export function storedValuesPerCertificate(deployment: unknown, count: number): number {
  return resourcesOf(deployment).reduce((n: number, r) => n + members(r), 0) / Math.max(1, count);
}

/** Where BENCH_STATE_DUMP puts a path's deployment: the file itself for the dynamic path, `<name>.<path><ext>` for another. */
function dumpFile(file: string, label: string): string {
  if (label === "dynamic") return file;
  const ext = path.extname(file);
  return `${file.slice(0, file.length - ext.length)}.${label}${ext}`;
}

/** Prints the breakdown of the first row's checkpoints (one real graph, `label`, and the no-op graph), per resource. */
export function printStateBreakdown(label: string, real: unknown, noop: unknown, count: number): void {
  if (process.env.BENCH_STATE_DUMP) fs.writeFileSync(dumpFile(process.env.BENCH_STATE_DUMP, label), JSON.stringify(real, null, 2));
  const r = totals(real);
  const n = totals(noop);
  const per = (bytes: number, c: number) => Math.round(bytes / Math.max(1, c));
  console.log(`\n  ${label} checkpoint by resource kind (bytes per resource as compact JSON; the file's indentation aside; ${count} certificates)`);
  console.log(`    ${"kind".padEnd(21)}${label.padStart(8)}${"no-op".padStart(7)}   ${label}: provider text / secret envelopes / other inputs / other outputs (of which echo an input) / source positions / dependencies / rest`);
  for (const [kind, t] of r) {
    const base = n.get(kind);
    console.log(
      `    ${kind.padEnd(21)}${String(per(t.total, t.count)).padStart(8)}${String(base ? per(base.total, base.count) : "-").padStart(7)}   ` +
        [t.providerText, t.secretCiphertext, t.inputs, `${per(t.outputs, t.count)} (${per(echoes(t), t.count)})`, t.sourcePositions, t.dependencies, t.metadata]
          .map((b) => (typeof b === "number" ? per(b, t.count) : b))
          .join(" / "),
    );
  }
  const noopProvider = [...n.values()].reduce((s, t) => s + t.providerText, 0) / Math.max(1, count * 4);
  const noopPositions = [...n.values()].reduce((s, t) => s + t.sourcePositions, 0) / Math.max(1, count * 4);
  console.log(`    (no-op: provider text ${Math.round(noopProvider)}, source positions ${Math.round(noopPositions)} bytes per resource)`);
  console.log(`  outputs by size (bytes per resource; "input" = the same value is also stored as an input)`);
  for (const [kind, t] of r) {
    const rows = [...t.byOutput.entries()].sort((a, b) => b[1].bytes - a[1].bytes).filter(([, e]) => e.bytes / t.count >= 40);
    if (rows.length === 0) continue;
    const line = rows.map(([name, e]) => `${name} ${per(e.bytes, t.count)}${e.secret ? " secret" : ""}${e.sameAsInput > 0 ? " input" : ""}`).join(", ");
    console.log(`    ${kind}: ${line}`);
  }
}
