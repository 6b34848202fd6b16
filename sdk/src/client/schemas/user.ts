import { z } from "zod";
import { int, money, orNull, userStatus, wireObject } from "./common.js";

// GetUserData (seed 2.1; shape per docs/wire-format.md).

const accountUser = wireObject({
  id: int.optional(),
  username: z.string(),
  email: z.string().nullish(),
  status: userStatus,
  bound_phone: orNull(z.string()),
  bound_email: orNull(z.string()),
  balance: money,
  credit_limit: money.optional(),
  credit_used: money.optional(),
  credit_available: money.optional(),
  total_available: money,
  currency: z.string().optional(),
  created_at: z.string().optional(),
});

const apiKeyInfo = wireObject({
  app_id: orNull(z.string()),
  status: int.optional(),
  last_used_ip: orNull(z.string()),
  last_used_at: z.string().nullish(),
  expires_at: z.string().nullish(),
});

export const userDataSchema = wireObject({ user: accountUser, api_key: apiKeyInfo });
