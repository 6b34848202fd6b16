import { wireName } from "../encoding.js";
import { toMoney, type Money } from "../money.js";
import type { Open, OpenInt } from "../vocabulary.js";

// A small toolkit for reading answers field by field, tolerant where the
// contract allows it and strict where a wrong value would mislead:
//
// - unknown fields are ignored; unlisted enum values pass through;
// - a field is declared with how its absence is treated (required, optional,
//   nullable, or `expected`: listed by the specification but not worth
//   failing an answer over, so a missing or unreadable value is reported as a
//   warning and left absent);
// - a list skips an element it cannot read and reports it, so one bad
//   product or record never fails the whole answer;
// - money is read exactly or not at all (never rounded beyond float noise).
//
// Why not zod here: zod fails a parse or silently catches; these readers need
// a third outcome, "left out, and say where", with the wire path in the message.
//
// The readers are also the declaration of the answers' types: `object({...})`
// infers what it yields from its fields, and `ReadOf<typeof reader>` names
// it (types.ts does, for every public answer type). A field's TSDoc goes on
// its member of the `object({...})` literal and reaches the public type.
//
// Cost: a product list is ~57 KB of JSON read field by field, so reading is
// kept close to the cost of JSON.parse: the context tracks where reading is
// as a stack of wire names and indexes, and a path string is built only when
// a message needs one (a fault or a warning), never per field read.

/** A value that breaks the contract at `path` (a wire path such as `data.products.items[2].base_price`). */
export class WireFault extends Error {
  override readonly name = "WireFault";
  constructor(
    readonly path: string,
    readonly rule: string,
  ) {
    super(`${path}: ${rule}`);
  }
}

/**
 * One answer's reading: where it is (the wire path, kept as a stack of
 * member names and list indexes) and what tolerant reading left out of it.
 */
export class ReadContext {
  readonly warnings: string[] = [];
  readonly #segments: (string | number)[];

  /** `root` names the value read first (`data` for an answer's data). */
  constructor(root = "data") {
    this.#segments = [root];
  }

  warn(message: string): void {
    this.warnings.push(message);
  }

  /** The wire path being read, e.g. `data.products.items[2].base_price` (built on demand). */
  path(): string {
    let out = "";
    for (const segment of this.#segments) out += typeof segment === "number" ? `[${segment}]` : out === "" ? segment : `.${segment}`;
    return out;
  }

  /** A fault at the path being read. */
  fault(rule: string): WireFault {
    return new WireFault(this.path(), rule);
  }

  /** Steps into a member (a name) or a list element (an index). */
  enter(segment: string | number): void {
    this.#segments.push(segment);
  }

  /** Steps back out of what {@link enter} stepped into. */
  leave(): void {
    this.#segments.pop();
  }

  /** How deep reading is; a reader that catches a fault restores it with {@link restore}. */
  depth(): number {
    return this.#segments.length;
  }

  /** Back to a depth from {@link depth}: a fault thrown from deeper leaves its segments behind. */
  restore(depth: number): void {
    this.#segments.length = depth;
  }
}

/** Reads a value at the context's current path; throws {@link WireFault} when it breaks the contract. */
export type Reader<T> = (value: unknown, ctx: ReadContext) => T;

/** What a reader yields: `ReadOf<typeof createOrderResult>` is the CreateOrder answer's camelCase type. */
export type ReadOf<R> = R extends Reader<infer T> ? T : never;

/** An object type with its members listed (an intersection or mapped type flattened for editors). */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** `T` with its members `K` always present (filled in by a reader or the client); their docs are kept. */
export type Filled<T, K extends keyof T> = Simplify<Omit<T, K> & { [P in K]-?: Exclude<T[P], undefined> }>;

// ---------------------------------------------------------------------------
// Scalars
// ---------------------------------------------------------------------------

/** Any string (an empty one too). */
export const text: Reader<string> = (value, ctx) => {
  if (typeof value !== "string") throw ctx.fault(`expected a string, got ${kindOf(value)}`);
  return value;
};

/** A string that is not empty (identifiers such as `order_no`). */
export const nonEmptyText: Reader<string> = (value, ctx) => {
  const s = text(value, ctx);
  if (s.length === 0) throw ctx.fault("expected a non-empty string");
  return s;
};

/** An integer; a string of digits is accepted too (PHP services send both). */
export const integer: Reader<number> = (value, ctx) => {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  if (typeof value === "string" && /^-?\d{1,15}$/.test(value)) return Number(value);
  throw ctx.fault(`expected an integer, got ${kindOf(value)}`);
};

/** A boolean; 0/1 and "0"/"1" are accepted too. */
export const boolean: Reader<boolean> = (value, ctx) => {
  if (typeof value === "boolean") return value;
  if (value === 1 || value === "1") return true;
  if (value === 0 || value === "0") return false;
  throw ctx.fault(`expected a boolean, got ${kindOf(value)}`);
};

/**
 * An amount: a JSON number (the specification's form) or a decimal string,
 * as a two-place {@link Money} string. An amount with more than two
 * significant decimals is refused, never rounded.
 */
export const money: Reader<Money> = (value, ctx) => {
  // Whole amounts (most prices) need none of toMoney's float care: toMoney(100) is "100.00" too.
  if (typeof value === "number" && Number.isSafeInteger(value) && Math.abs(value) < 1e11) return `${value}.00`;
  const normalised = typeof value === "number" || typeof value === "string" ? toMoney(value) : undefined;
  if (normalised === undefined) throw ctx.fault(`expected an amount with at most 2 decimals, got ${kindOf(value)}`);
  return normalised;
};

/** A string from an open list: listed values and new ones alike (see the list's guard). */
export function openText<K extends string>(): Reader<Open<K>> {
  return text;
}

/** An integer from an open list (a state): listed values and new ones alike. */
export function openInteger<K extends number>(): Reader<OpenInt<K>> {
  return integer;
}

/** A JSON object of unfixed shape, as sent (wire names). PHP's `[]` for an empty object reads as `{}`. */
export const opaqueObject: Reader<Readonly<Record<string, unknown>>> = (value, ctx) => {
  if (Array.isArray(value) && value.length === 0) return {};
  if (!isPlainObject(value)) throw ctx.fault(`expected an object, got ${kindOf(value)}`);
  return value;
};

// ---------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------

/**
 * A reader of a list of what `R` reads. An interface (not `Reader<T[]>`) so
 * that the element reader, and the field docs in it, stay in the declared
 * type of a reader built from it.
 */
export interface ListReader<R extends Reader<unknown>> extends Reader<ReadOf<R>[]> {}

/**
 * A list whose elements are read one by one: an element that breaks the
 * contract is skipped and reported (`skipped <path>[i]: <rule>`), the rest
 * are returned. `label` may name an element in that report.
 */
export function listOf<R extends Reader<unknown>>(element: R, label?: (raw: unknown) => string | undefined): ListReader<R> {
  return (value, ctx) => {
    if (!Array.isArray(value)) throw ctx.fault(`expected a list, got ${kindOf(value)}`);
    const out: ReadOf<R>[] = [];
    const depth = ctx.depth();
    for (let index = 0; index < value.length; index++) {
      const raw: unknown = value[index];
      ctx.enter(index);
      try {
        out.push(element(raw, ctx) as ReadOf<R>);
      } catch (fault) {
        if (!(fault instanceof WireFault)) throw fault;
        ctx.restore(depth + 1);
        const name = safeLabel(label, raw);
        ctx.warn(`skipped ${ctx.path()}${name ? ` (${name})` : ""}: ${fault.message}`);
      }
      ctx.leave();
    }
    return out;
  };
}

function safeLabel(label: ((raw: unknown) => string | undefined) | undefined, raw: unknown): string | undefined {
  try {
    return label?.(raw);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------
// Objects, field by field
// ---------------------------------------------------------------------------

/**
 * How a field's absence (missing or `null`) and an unreadable value are treated.
 *
 * | mode | absent | unreadable |
 * |---|---|---|
 * | `required` | fault | fault |
 * | `nullable` | `null` | fault |
 * | `optional` | left out | reported, left out |
 * | `expected` | reported, left out | reported, left out |
 * | `list` | `[]` | reported, `[]` |
 * | `fallback` | the fallback | reported, the fallback |
 */
export type FieldMode = "required" | "nullable" | "optional" | "expected" | "list" | "fallback";

/**
 * One field of an object reader: its reader, mode and, where the
 * specification does not name it by {@link wireName}, its wire name(s) (the
 * first present wins: aliases). It keeps the reader's own type `R` (not just
 * what it yields), so the docs of a nested object's fields stay in the
 * declared type.
 */
export interface Field<R extends Reader<unknown>, M extends FieldMode> {
  readonly wire?: readonly string[];
  readonly read: R;
  readonly mode: M;
  /** What a `fallback` field reads as when absent or unreadable. */
  readonly fallback?: ReadOf<R>;
}

const field =
  <M extends FieldMode>(mode: M) =>
  <R extends Reader<unknown>>(read: R, wire?: string | readonly string[]): Field<R, M> => ({ read, mode, ...(wire !== undefined && { wire: typeof wire === "string" ? [wire] : wire }) });

/** Must be present and readable. */
export const required = field("required");
/** May be `null` or absent (read as `null`); a present value must be readable. */
export const nullable = field("nullable");
/** May be absent; an unreadable value is reported and left out. */
export const optional = field("optional");
/** Listed by the contract but not worth failing the answer over: absent or unreadable is reported and left out. */
export const expected = field("expected");
/** A list that reads as `[]` when absent; elements are read with {@link listOf}. */
export function list<R extends Reader<unknown>>(element: R, label?: (raw: unknown) => string | undefined): Field<ListReader<R>, "list"> {
  return { read: listOf(element, label), mode: "list" };
}
/** Reads as `value` when absent; an unreadable value is reported and read as `value` too. `value` is a primitive: results share it. */
export function fallback<R extends Reader<unknown>>(read: R, value: ReadOf<R> & (string | number | boolean)): Field<R, "fallback"> {
  return { read, mode: "fallback", fallback: value };
}

/** The fields of an object reader, by public (camelCase) name. */
export type Shape = Record<string, Field<Reader<unknown>, FieldMode>>;
type Loose = "optional" | "expected";
type ValueOf<F> = F extends Field<infer R, infer M> ? (M extends "nullable" ? ReadOf<R> | null : ReadOf<R>) : never;

/**
 * What an object reader yields: public (camelCase) names; `required`, `list`
 * and `fallback` fields always present, `nullable` ones present and possibly
 * `null`, `optional`/`expected` ones optional.
 */
export type ObjectOf<S extends Shape> = Simplify<
  { [K in keyof S as S[K]["mode"] extends Loose ? never : K]: ValueOf<S[K]> } & {
    [K in keyof S as S[K]["mode"] extends Loose ? K : never]?: ValueOf<S[K]>;
  }
>;

/**
 * A reader built by {@link object}: it yields {@link ObjectOf} its shape. An
 * interface (not `Reader<ObjectOf<S>>`) so that the shape, with the TSDoc of
 * its fields, stays in the declared type (and in the emitted `.d.ts`).
 */
export interface ObjectReader<S extends Shape> extends Reader<ObjectOf<S>> {}

/**
 * Reads a JSON object field by field into the public shape: keys of `shape`
 * are the public (camelCase) names, read from their {@link wireName} unless
 * the field names its wire name(s). Fields
 * not in `shape` are ignored. The result type is inferred from the fields.
 *
 * With `tolerateNonObject`, an answer that is not an object at all reads as
 * an empty one (reported): for answers of operations that already took
 * effect, where the fields then take their absent-treatment.
 */
export function object<S extends Shape>(shape: S, options: { tolerateNonObject?: boolean } = {}): ObjectReader<S> {
  // Flattened once per reader: the loop below runs for every field of every element of a list.
  const names = Object.keys(shape);
  const specs = names.map((name) => shape[name]!);
  const reads = specs.map((spec) => spec.read);
  const wires = names.map((name, i) => specs[i]!.wire ?? [wireName(name)]);
  const firstWires = wires.map((wire) => wire[0]!);
  const aliased = wires.map((wire) => wire.length > 1);
  const strict = specs.map((spec) => spec.mode === "required" || spec.mode === "nullable");
  const fallbacks = specs.map((spec) => spec.fallback);
  return (value, ctx) => {
    let source: Record<string, unknown>;
    if (isPlainObject(value)) source = value;
    else if (Array.isArray(value) && value.length === 0) source = {}; // PHP encodes an empty object as []
    else if (options.tolerateNonObject) {
      ctx.warn(`${ctx.path()}: expected an object, got ${kindOf(value)}; read as empty`);
      source = {};
    } else throw ctx.fault(`expected an object, got ${kindOf(value)}`);

    const out: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      let wire = firstWires[i]!;
      let raw = source[wire];
      if ((raw === undefined || raw === null) && aliased[i]) {
        // Aliases: the first present wins.
        const alias = wires[i]!.find((w) => source[w] !== undefined && source[w] !== null);
        if (alias !== undefined) {
          wire = alias;
          raw = source[alias];
        }
      }
      if (raw === undefined || raw === null) {
        const mode = specs[i]!.mode;
        if (mode === "required") {
          ctx.enter(wire);
          throw ctx.fault(raw === null ? "must not be null" : "is missing");
        }
        if (mode === "nullable") out[names[i]!] = null;
        else if (mode === "list") out[names[i]!] = [];
        else if (mode === "fallback") out[names[i]!] = fallbacks[i];
        else if (mode === "expected") {
          ctx.enter(wire);
          ctx.warn(`${ctx.path()}: is missing; left out`);
          ctx.leave();
        }
        continue;
      }
      ctx.enter(wire);
      if (strict[i]) {
        // A fault propagates with the path where it happened; whoever catches it restores the depth.
        out[names[i]!] = reads[i]!(raw, ctx);
        ctx.leave();
        continue;
      }
      const depth = ctx.depth();
      try {
        out[names[i]!] = reads[i]!(raw, ctx);
      } catch (fault) {
        if (!(fault instanceof WireFault)) throw fault;
        ctx.restore(depth);
        ctx.warn(`${fault.message}; left out`);
        if (specs[i]!.mode === "list") out[names[i]!] = [];
        else if (specs[i]!.mode === "fallback") out[names[i]!] = fallbacks[i];
      }
      ctx.leave();
    }
    return out as ObjectOf<S>;
  };
}

/** A reader whose result is post-processed (e.g. a derived or defaulted field). */
export function map<A, B>(reader: Reader<A>, f: (value: A, ctx: ReadContext) => B): Reader<B> {
  return (value, ctx) => f(reader(value, ctx), ctx);
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A short description of a value for messages: its JSON type, never its content (it may be a secret). */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return value.length === 0 ? "an empty string" : "a string";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a fractional number";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
