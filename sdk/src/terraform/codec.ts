/**
 * Terraform's values on the wire: a DynamicValue holds msgpack (or, from some
 * callers, JSON) that only its schema type can read — an object is a map with
 * every attribute present, a set is an array, a number may be an int, a
 * float or a decimal string. These functions turn those bytes into
 * {@link TfValue}s and back, with the type in hand.
 */
import { Decoder, Encoder, ExtData } from "@msgpack/msgpack";
import { UNKNOWN, type TfPath, type TfType, type TfValue } from "./contract.js";

/** A value that does not fit its type, with where it is. */
export class TfCodecError extends Error {
  constructor(
    message: string,
    readonly path: TfPath,
  ) {
    super(path.length === 0 ? message : `${formatPath(path)}: ${message}`);
    this.name = "TfCodecError";
  }
}

/** A path as HCL writes it: `a.b[0]["key"]`. */
export function formatPath(path: TfPath): string {
  let text = "";
  for (const step of path) {
    if (typeof step === "number") text += `[${step}]`;
    else if (/^[A-Za-z_][\w-]*$/.test(step)) text += text === "" ? step : `.${step}`;
    else text += `[${JSON.stringify(step)}]`;
  }
  return text;
}

/** The DynamicValue message as proto-loader hands it over (absent fields as empty buffers or undefined). */
export interface WireDynamicValue {
  msgpack?: Uint8Array | null;
  json?: Uint8Array | null;
}

/** A type as the schema's `type` bytes carry it, and as a dynamic value's first element names it. */
export function typeJson(type: TfType): Buffer {
  return Buffer.from(JSON.stringify(type), "utf8");
}

/** The decoder's types, which include the tuple a dynamic value may carry (the contract's types never name one). */
type WireType = TfType | readonly ["tuple", readonly WireType[]];

const decoder = new Decoder({ useBigInt64: true });
const encoder = new Encoder({ useBigInt64: true, sortKeys: true });

/** go-cty's unknown, exactly as terraform-plugin-go writes it: fixext1, type 0, one zero byte. */
const UNKNOWN_EXT = new ExtData(0, new Uint8Array([0]));

/**
 * Reads a DynamicValue with its type: msgpack when present, else JSON; an
 * empty message (no bytes in either) is null, as Terraform sends an absent
 * prior state.
 *
 * @example
 * decodeDynamicValue({ msgpack: Buffer.from([0x81, 0xa1, 0x61, 0x01]) }, ["object", { a: "number" }]); // { a: 1 }
 */
export function decodeDynamicValue(value: WireDynamicValue | null | undefined, type: TfType): TfValue {
  if (value?.msgpack && value.msgpack.length > 0) return decodeMsgpack(value.msgpack, type);
  if (value?.json && value.json.length > 0) return decodeJsonBytes(value.json, type);
  return null;
}

/** Encodes a value of the given type as a DynamicValue (always msgpack, as Terraform's own providers answer). */
export function encodeDynamicValue(value: TfValue, type: TfType): { msgpack: Buffer } {
  return { msgpack: encodeMsgpack(value, type) };
}

/**
 * Decodes msgpack bytes with a type. Unknowns (any extension, as
 * terraform-plugin-go reads them: 0 is unknown, 12 a refined unknown) become
 * {@link UNKNOWN}; numbers arrive as int, float or decimal string and must
 * fit a JS number exactly.
 */
export function decodeMsgpack(bytes: Uint8Array, type: TfType): TfValue {
  let raw: unknown;
  try {
    raw = decoder.decode(bytes);
  } catch (error) {
    throw new TfCodecError(`the value is not valid msgpack: ${(error as Error).message}`, []);
  }
  return fromMsgpack(raw, type, []);
}

function fromMsgpack(raw: unknown, type: WireType, path: TfPath): TfValue {
  if (raw instanceof ExtData || raw instanceof Date) return UNKNOWN;
  if (type === "dynamic") {
    if (raw === null) return null;
    // A dynamic value is [type JSON, value].
    if (!Array.isArray(raw) || raw.length !== 2 || !(raw[0] instanceof Uint8Array)) throw new TfCodecError("a dynamic value must be a 2-array [type JSON, value]", path);
    return fromMsgpack(raw[1], parseTypeJson(Buffer.from(raw[0]).toString("utf8"), path), path);
  }
  if (raw === null) return null;
  if (type === "string") {
    if (typeof raw !== "string") throw new TfCodecError(`expected a string, got ${describe(raw)}`, path);
    return raw;
  }
  if (type === "number") return decodeNumber(raw, path);
  if (type === "bool") {
    if (typeof raw !== "boolean") throw new TfCodecError(`expected a bool, got ${describe(raw)}`, path);
    return raw;
  }
  const [kind, inner] = type;
  switch (kind) {
    case "list":
    case "set":
      if (!Array.isArray(raw)) throw new TfCodecError(`expected a ${kind} (an array), got ${describe(raw)}`, path);
      return raw.map((element, index) => fromMsgpack(element, inner, [...path, index]));
    case "tuple":
      if (!Array.isArray(raw) || raw.length !== inner.length) throw new TfCodecError(`expected a tuple of ${inner.length} elements, got ${describe(raw)}`, path);
      return raw.map((element, index) => fromMsgpack(element, inner[index]!, [...path, index]));
    case "map": {
      const entries = mapEntries(raw, path);
      return Object.fromEntries(entries.map(([key, element]) => [key, fromMsgpack(element, inner, [...path, key])]));
    }
    case "object": {
      const entries = new Map(mapEntries(raw, path));
      for (const key of entries.keys()) {
        if (!(key in inner)) throw new TfCodecError(`attribute ${JSON.stringify(key)} is not in the type (expected ${Object.keys(inner).join(", ") || "no attributes"})`, path);
      }
      return Object.fromEntries(Object.entries(inner).map(([key, attributeType]) => [key, entries.has(key) ? fromMsgpack(entries.get(key), attributeType, [...path, key]) : null]));
    }
  }
}

function mapEntries(raw: unknown, path: TfPath): [string, unknown][] {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw) || raw instanceof Uint8Array) throw new TfCodecError(`expected a map, got ${describe(raw)}`, path);
  return Object.entries(raw);
}

function decodeNumber(raw: unknown, path: TfPath): number {
  if (typeof raw === "number") {
    if (Number.isNaN(raw)) throw new TfCodecError("NaN is not a Terraform number", path);
    return raw;
  }
  if (typeof raw === "bigint") {
    const n = Number(raw);
    if (BigInt(n) !== raw) throw new TfCodecError(`the number ${raw} cannot be held exactly (more than 53 bits)`, path);
    return n;
  }
  if (typeof raw === "string") return parseDecimal(raw, path);
  throw new TfCodecError(`expected a number, got ${describe(raw)}`, path);
}

/**
 * A decimal string (go-cty sends one for a number that is neither an exact
 * int64 nor an exact float64, such as 0.1): the JS number whose shortest
 * decimal form is the same number, else an error rather than a rounded value.
 */
function parseDecimal(text: string, path: TfPath): number {
  const canonical = canonicalDecimal(text);
  if (canonical === undefined) throw new TfCodecError(`expected a number, got a string of ${text.length} characters that is not a decimal number`, path);
  const n = Number(text.trim());
  // The shortest decimal form of n, or, for a large integer, its exact binary value written out.
  const exact = Number.isFinite(n) && (canonicalDecimal(String(n)) === canonical || (Number.isInteger(n) && canonicalDecimal(BigInt(n).toString()) === canonical));
  if (!exact) throw new TfCodecError(`the number ${text} cannot be held exactly in a float64`, path);
  return n;
}

/** sign, significant digits and exponent, so "1.50", "15e-1" and "1.5" compare equal. */
function canonicalDecimal(text: string): string | undefined {
  const match = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(text);
  if (!match || (match[2] === "" && (match[3] ?? "") === "")) return undefined;
  const digits = `${match[2]}${match[3] ?? ""}`;
  let exponent = Number(match[4] ?? 0) + (match[2] ?? "").length;
  const leading = digits.length - digits.replace(/^0+/, "").length;
  const significant = digits.replace(/^0+/, "").replace(/0+$/, "");
  if (significant === "") return "0";
  exponent -= leading;
  return `${match[1] === "-" ? "-" : ""}0.${significant}e${exponent}`;
}

/**
 * Encodes a value with its type: objects as maps with every attribute of the
 * type (null where the value has none), numbers as int when integral and
 * float64 otherwise, {@link UNKNOWN} as go-cty's unknown.
 */
export function encodeMsgpack(value: TfValue, type: TfType): Buffer {
  const wire = toMsgpack(value, type, []);
  const bytes = encoder.encode(wire);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function toMsgpack(value: TfValue | undefined, type: WireType, path: TfPath): unknown {
  if (value === UNKNOWN) return UNKNOWN_EXT;
  if (value === null || value === undefined) return null;
  if (type === "dynamic") {
    const actual = inferType(value, path);
    return [Buffer.from(JSON.stringify(actual), "utf8"), toMsgpack(value, actual, path)];
  }
  if (type === "string") {
    if (typeof value !== "string") throw new TfCodecError(`expected a string, got ${describe(value)}`, path);
    return value;
  }
  if (type === "number") {
    if (typeof value !== "number" || Number.isNaN(value)) throw new TfCodecError(`expected a number, got ${describe(value)}`, path);
    return encodeNumber(value);
  }
  if (type === "bool") {
    if (typeof value !== "boolean") throw new TfCodecError(`expected a bool, got ${describe(value)}`, path);
    return value;
  }
  const [kind, inner] = type;
  switch (kind) {
    case "list":
    case "set":
      if (!Array.isArray(value)) throw new TfCodecError(`expected a ${kind} (an array), got ${describe(value)}`, path);
      return (value as readonly TfValue[]).map((element, index) => toMsgpack(element, inner, [...path, index]));
    case "tuple": {
      const elements = value as readonly TfValue[];
      if (!Array.isArray(value) || elements.length !== inner.length) throw new TfCodecError(`expected a tuple of ${inner.length} elements, got ${describe(value)}`, path);
      return elements.map((element, index) => toMsgpack(element, inner[index]!, [...path, index]));
    }
    case "map": {
      const record = asRecord(value, path);
      return Object.fromEntries(Object.entries(record).map(([key, element]) => [key, toMsgpack(element, inner, [...path, key])]));
    }
    case "object": {
      const record = asRecord(value, path);
      for (const key of Object.keys(record)) {
        if (!(key in inner)) throw new TfCodecError(`attribute ${JSON.stringify(key)} is not in the schema (it has ${Object.keys(inner).join(", ") || "no attributes"})`, path);
      }
      return Object.fromEntries(Object.entries(inner).map(([key, attributeType]) => [key, toMsgpack(record[key], attributeType, [...path, key])]));
    }
  }
}

/**
 * As terraform-plugin-go writes a number parsed from the same decimal: an
 * int where int64 holds it, a float64 where the binary value is exactly its
 * shortest decimal (1.5), else that decimal as a string (0.1). Terraform
 * reads a config's 0.1 as the exact decimal; the float64 nearest to it is
 * another number, and a plan echoing it would not match the config.
 */
function encodeNumber(value: number): number | bigint | string {
  if (!Number.isFinite(value)) return value;
  if (Number.isInteger(value)) {
    if (Number.isSafeInteger(value)) return value;
    const big = BigInt(value);
    if (big >= -(2n ** 63n) && big < 2n ** 63n) return big;
    return String(value);
  }
  const shortest = String(value);
  return canonicalDecimal(exactDecimal(value)) === canonicalDecimal(shortest) ? value : shortest;
}

/** The exact decimal expansion of a finite, non-integral float64 (every such value has one: m / 2^k). */
function exactDecimal(value: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(value));
  const bits = view.getBigUint64(0);
  const exponentBits = (bits >> 52n) & 0x7ffn;
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = exponentBits === 0n ? fraction : fraction | (1n << 52n);
  // value = mantissa * 2^-scale = mantissa * 5^scale / 10^scale
  const scale = exponentBits === 0n ? 1074 : 1075 - Number(exponentBits);
  const digits = (mantissa * 5n ** BigInt(scale)).toString().padStart(scale + 1, "0");
  return `${value < 0 ? "-" : ""}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
}

function asRecord(value: TfValue, path: TfPath): { readonly [key: string]: TfValue } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new TfCodecError(`expected a map or object, got ${describe(value)}`, path);
  return value as { readonly [key: string]: TfValue };
}

/** The type a value of a dynamic attribute is sent with (its shape decides: arrays are tuples, records objects). */
function inferType(value: TfValue, path: TfPath): WireType {
  if (value === null || value === UNKNOWN) return "dynamic";
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return ["tuple", (value as readonly TfValue[]).map((element, index) => inferType(element, [...path, index]))];
  return ["object", Object.fromEntries(Object.entries(value as { [key: string]: TfValue }).map(([key, element]) => [key, inferType(element, [...path, key])]))] as WireType;
}

function parseTypeJson(text: string, path: TfPath): WireType {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new TfCodecError(`the type ${JSON.stringify(text)} is not JSON`, path);
  }
  return checkType(parsed, path);
}

function checkType(parsed: unknown, path: TfPath): WireType {
  if (parsed === "string" || parsed === "number" || parsed === "bool" || parsed === "dynamic") return parsed;
  if (Array.isArray(parsed) && parsed.length === 2) {
    const [kind, inner] = parsed as [unknown, unknown];
    if (kind === "list" || kind === "set" || kind === "map") return [kind, checkType(inner, path) as TfType];
    if (kind === "tuple" && Array.isArray(inner)) return ["tuple", inner.map((element) => checkType(element, path))];
    if (kind === "object" && inner !== null && typeof inner === "object" && !Array.isArray(inner)) {
      return ["object", Object.fromEntries(Object.entries(inner).map(([key, element]) => [key, checkType(element, path) as TfType]))];
    }
  }
  throw new TfCodecError(`${JSON.stringify(parsed)} is not a Terraform type`, path);
}

/** Decodes JSON bytes (a DynamicValue's `json`, or raw state) with a type. */
export function decodeJsonBytes(bytes: Uint8Array, type: TfType, options: JsonOptions = {}): TfValue {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch (error) {
    throw new TfCodecError(`the value is not valid JSON: ${(error as Error).message}`, []);
  }
  return decodeJson(parsed, type, options);
}

export interface JsonOptions {
  /** Drop object attributes the type does not have (state written by a schema that had them) instead of failing. */
  readonly ignoreUndefinedAttributes?: boolean;
}

/**
 * Decodes a parsed JSON value with a type, as go-cty's JSON form writes it: a
 * dynamic value is `{"value": …, "type": …}`, numbers may be strings.
 */
export function decodeJson(parsed: unknown, type: TfType, options: JsonOptions = {}): TfValue {
  return fromJson(parsed, type, [], options);
}

function fromJson(raw: unknown, type: WireType, path: TfPath, options: JsonOptions): TfValue {
  if (raw === null || raw === undefined) return null;
  if (type === "dynamic") {
    if (typeof raw !== "object" || Array.isArray(raw) || !("type" in raw) || !("value" in raw)) throw new TfCodecError('a dynamic value in JSON must be {"value": …, "type": …}', path);
    const record = raw as { type: unknown; value: unknown };
    return fromJson(record.value, checkType(record.type, path), path, options);
  }
  if (type === "string") {
    if (typeof raw === "string") return raw;
    // go-cty's JSON decoder accepts a number or bool for a string, as its conversion does.
    if (typeof raw === "number" || typeof raw === "boolean") return String(raw);
    throw new TfCodecError(`expected a string, got ${describe(raw)}`, path);
  }
  if (type === "number") return decodeNumber(raw, path);
  if (type === "bool") {
    if (typeof raw === "boolean") return raw;
    if (raw === "true" || raw === "false") return raw === "true";
    throw new TfCodecError(`expected a bool, got ${describe(raw)}`, path);
  }
  const [kind, inner] = type;
  switch (kind) {
    case "list":
    case "set":
      if (!Array.isArray(raw)) throw new TfCodecError(`expected a ${kind} (an array), got ${describe(raw)}`, path);
      return raw.map((element, index) => fromJson(element, inner, [...path, index], options));
    case "tuple":
      if (!Array.isArray(raw) || raw.length !== inner.length) throw new TfCodecError(`expected a tuple of ${inner.length} elements, got ${describe(raw)}`, path);
      return raw.map((element, index) => fromJson(element, inner[index]!, [...path, index], options));
    case "map":
      return Object.fromEntries(mapEntries(raw, path).map(([key, element]) => [key, fromJson(element, inner, [...path, key], options)]));
    case "object": {
      const entries = new Map(mapEntries(raw, path));
      if (!options.ignoreUndefinedAttributes) {
        for (const key of entries.keys()) {
          if (!(key in inner)) throw new TfCodecError(`attribute ${JSON.stringify(key)} is not in the type (expected ${Object.keys(inner).join(", ") || "no attributes"})`, path);
        }
      }
      return Object.fromEntries(Object.entries(inner).map(([key, attributeType]) => [key, entries.has(key) ? fromJson(entries.get(key), attributeType, [...path, key], options) : null]));
    }
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === UNKNOWN) return "an unknown value";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  if (typeof value === "object") return "a map";
  // Never the text itself: the attribute may be sensitive.
  if (typeof value === "string") return `a string of ${value.length} characters`;
  return `the ${typeof value} ${String(value)}`;
}
