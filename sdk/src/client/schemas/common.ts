import { z } from "zod";
import { toMoney } from "../money.js";

// Building blocks for response schemas. Every schema reads the wire
// (snake_case) and yields the public camelCase shape; unknown fields are
// tolerated and dropped from the typed result.

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** `{ order_no: T }` → `{ orderNo: T }`, keeping optionality. */
export type Camelized<T> = { [K in keyof T as K extends string ? CamelCase<K> : K]: T[K] };

function camelCase(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * An object schema over wire (snake_case) keys whose output carries the same
 * fields in camelCase. Unknown fields are accepted and left out of the
 * result; absent optional fields stay absent.
 */
export function wireObject<Shape extends z.ZodRawShape>(shape: Shape) {
  const keys = Object.keys(shape).map((wire) => [wire, camelCase(wire)] as const);
  // A plain (stripping) object: unknown fields are tolerated and dropped, which is
  // what the transform does anyway, and it keeps zod on its fast path.
  return z.object(shape).transform((input) => {
    const out: Record<string, unknown> = {};
    for (const [wire, camel] of keys) {
      const value = (input as Record<string, unknown>)[wire];
      if (value !== undefined) out[camel] = value;
    }
    return out as Camelized<z.output<z.ZodObject<Shape>>>;
  });
}

/** A documented-nullable field: `null` or absent both read as `null`. */
export function orNull<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((value): z.output<T> | null => value ?? null);
}

/** Money as a decimal string or a number, normalised to a two-place string. */
export const money = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const normalised = toMoney(value);
  if (normalised === undefined) {
    ctx.addIssue({ code: "custom", message: "expected an amount (decimal string or number with at most 2 decimals)" });
    return z.NEVER;
  }
  return normalised;
});

/** An integer, also accepted as a string of digits (PHP services send both). */
export const int = z.union([z.number().int(), z.string().regex(/^-?\d+$/, "expected an integer").transform(Number)]);

/** A boolean, also accepted as 0/1 or "0"/"1". */
export const boolish = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.literal("0"), z.literal("1")])
  .transform((value) => value === true || value === 1 || value === "1");

/** An integer that must be one of `values`. */
export function intEnum<const V extends readonly number[]>(values: V) {
  return int.refine((n): n is V[number] => values.includes(n), { message: `expected one of ${values.join(", ")}` }) as unknown as z.ZodType<
    V[number],
    unknown
  >;
}

export const certStatus = intEnum([0, 1, 2, 3, 4, 5, 6]);
export const orderStatus = intEnum([0, 1, 2, 3, 4]);
export const refundStatus = intEnum([0, 3]);
export const userStatus = intEnum([0, 1, 2, 3]);

export const verificationMethod = z.enum(["dns", "cname", "file", "https", "email"]);
export const emailSuffix = z.enum(["admin", "postmaster", "webmaster", "hostmaster"]);
export const paymentMethod = z.enum(["balance", "credit"]);

/** `{ name, code }` pairs of the product list. */
export const namedCode = wireObject({ name: z.string(), code: z.string() });

/** The response envelope every operation answers with. */
export const envelope = z
  .object({
    code: int,
    message: z.string().nullish(),
    data: z.unknown(),
    request_id: z.string().nullish(),
  })
  .loose();

/** Fields an error envelope's `data` may carry (all optional, read leniently). */
export const errorData = z
  .object({
    field: z.string().optional().catch(undefined),
    retry_after: z.number().nonnegative().or(z.string().regex(/^\d+(\.\d+)?$/).transform(Number)).optional().catch(undefined),
    cooldown_seconds: int.optional().catch(undefined),
    order_no: z.string().optional().catch(undefined),
  })
  .loose();
