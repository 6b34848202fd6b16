/**
 * Values between Terraform and the handlers, by the declarations' types:
 * HCL's snake_case object members become the declared camelCase ones and
 * back, Terraform's nulls are unset properties, its unknowns the handlers'
 * preview placeholder (which their check reads as "cannot judge yet").
 */
import { UNKNOWN as HANDLER_UNKNOWN, isUnknown } from "../provider/unknown.js";
import { entries, parseDeclared, type SchemaType } from "../schema/property.js";
import { UNKNOWN, type TfObject, type TfValue } from "./contract.js";
import { snakeCase } from "./names.js";
import type { DeclaredAttribute } from "./resources.js";

export type Props = Record<string, unknown>;

/** A Terraform value of `type` as the handlers take it (undefined: unset). */
export function fromTf(type: SchemaType, value: TfValue | undefined): unknown {
  if (value === null || value === undefined) return undefined;
  if (value === UNKNOWN) return HANDLER_UNKNOWN;
  switch (type.kind) {
    case "array":
      return (value as readonly TfValue[]).map((v) => fromTf(type.items, v) ?? null);
    case "map":
      return Object.fromEntries(Object.entries(value as TfObject).map(([k, v]) => [k, fromTf(type.values, v) ?? null]));
    case "object": {
      const out: Props = {};
      for (const [name, p] of entries(type.properties)) {
        const member = fromTf(p.type, (value as TfObject)[snakeCase(name)]);
        if (member !== undefined) out[name] = member;
      }
      return out;
    }
    default:
      return value;
  }
}

/** A handler's value of `type` as Terraform holds it (objects with every member, null where unset). */
export function toTf(type: SchemaType, value: unknown): TfValue {
  if (value === undefined || value === null) return null;
  if (isUnknown(value)) return UNKNOWN;
  switch (type.kind) {
    case "array":
      return Array.isArray(value) ? value.map((v) => toTf(type.items, v)) : null;
    case "map":
      return typeof value === "object" ? Object.fromEntries(Object.entries(value as Props).map(([k, v]) => [k, toTf(type.values, v)])) : null;
    case "object":
      return Object.fromEntries(entries(type.properties).map(([name, p]) => [snakeCase(name), toTf(p.type, (value as Props)[name])]));
    case "integer":
    case "number":
      return typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : null;
    case "boolean":
      return typeof value === "boolean" ? value : null;
    case "string":
    case "enum":
      return typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value);
    default:
      return value as TfValue;
  }
}

/** The declared inputs of a Terraform object (config or state), as the handlers take inputs. */
export function inputsOf(attributes: ReadonlyMap<string, DeclaredAttribute>, object: TfObject | null): Props {
  const out: Props = {};
  for (const [attribute, a] of attributes) {
    if (!a.input) continue;
    const value = fromTf(a.declaration.type, object?.[attribute]);
    if (value !== undefined) out[a.name] = value;
  }
  return out;
}

/**
 * A Terraform state as the handlers stored it: every declared property, the
 * inputs in the canonical form the handler's check gave them (state keeps
 * what the configuration says, so that Terraform sees no difference; the
 * parse rule gives the canonical form again), and what the front end kept
 * aside (`hidden`: the journal key, the account's endpoint).
 */
export function storedOf(attributes: ReadonlyMap<string, DeclaredAttribute>, state: TfObject, hidden: Props): Props {
  const out: Props = { ...hidden };
  for (const [attribute, a] of attributes) {
    const value = fromTf(a.declaration.type, state[attribute]);
    if (value === undefined) continue;
    if (a.input && !isUnknown(value)) {
      const parsed = parseDeclared(a.declaration, value, a.name);
      out[a.name] = parsed.failures ? value : (parsed.value ?? value);
    } else out[a.name] = value;
  }
  return out;
}

/** Handler outputs as a Terraform object (every declared attribute) and what is not declared (kept aside, in the private state). */
export function stateOf(attributes: ReadonlyMap<string, DeclaredAttribute>, outputs: Props): { state: Record<string, TfValue>; hidden: Props } {
  const state: Record<string, TfValue> = {};
  const declared = new Set<string>();
  for (const [attribute, a] of attributes) {
    declared.add(a.name);
    state[attribute] = toTf(a.declaration.type, outputs[a.name]);
  }
  const hidden: Props = {};
  for (const [name, value] of Object.entries(outputs)) if (!declared.has(name) && name !== "__provider" && value !== undefined) hidden[name] = value;
  return { state, hidden };
}

/** Whether a Terraform value is, or holds, an unknown. */
export function holdsUnknown(value: TfValue | undefined): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(holdsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value as TfObject).some(holdsUnknown);
  return false;
}
