import { z } from "zod";

// The envelope every operation answers with (spec section 1), and the
// fields an error envelope's `data` may carry. Read with zod: a failure
// here means "not the API's envelope", which decides the error's kind.

/** An integer, also accepted as a string of digits (PHP services send both). */
const int = z.union([z.number().int(), z.string().regex(/^-?\d+$/, "expected an integer").transform(Number)]);

/** `{ code, message, data }`; unknown members tolerated. */
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
