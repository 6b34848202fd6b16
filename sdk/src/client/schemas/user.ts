import type { UserStatus } from "../vocabulary.js";
import { integer, money, nullable, object, openInteger, required, text } from "./read.js";

// GetUserData (spec 2.1, 4.1). A read: every listed field is required; the
// ones the service documents as possibly null read as null.

/** `data.user`: the account behind the API key. */
export const accountUser = object({
  id: required("id", integer),
  userId: required("user_id", text),
  username: required("username", text),
  /** See {@link UserStatus}; an unlisted value is passed through. */
  status: required("status", openInteger<UserStatus>()),
  statusText: required("status_text", text),
  userType: required("user_type", text),
  partnerLevel: required("partner_level", integer),
  /** `null` when no phone is bound. */
  boundPhone: nullable("bound_phone", text),
  /** `null` when no e-mail is bound. */
  boundEmail: nullable("bound_email", text),
});

/** `data.account`: the account's money. */
export const accountFunds = object({
  balance: required("balance", money),
  creditLine: required("credit_line", money),
  creditUsed: required("credit_used", money),
  creditAvailable: required("credit_available", money),
  trustedBalance: required("trusted_balance", money),
  /** `balance + creditAvailable`. */
  totalAvailable: required("total_available", money),
});

/** `data.api_key`: the key as the service reports it, never the secret. */
export const apiKeyInfo = object({
  /** The key's identifier; `null` when the service has none to show. */
  appId: nullable("app_id", text),
  /** The IP address the key was last used from; `null` before first use. */
  lastUsedIp: nullable("last_used_ip", text),
});

export const userData = object({
  user: required("user", accountUser),
  account: required("account", accountFunds),
  apiKey: required("api_key", apiKeyInfo),
  /** `YYYY-MM-DD HH:MM:SS`. */
  serverTime: required("server_time", text),
});
