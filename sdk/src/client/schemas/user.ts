import type { UserStatus } from "../vocabulary.js";
import { integer, money, nullable, object, openInteger, required, text } from "./read.js";

// GetUserData (spec 2.1, 4.1). A read: every listed field is required; the
// ones the service documents as possibly null read as null.

/** `data.user`: the account behind the API key. */
export const accountUser = object({
  id: required(integer),
  userId: required(text),
  username: required(text),
  /** See {@link UserStatus}; an unlisted value is passed through. */
  status: required(openInteger<UserStatus>()),
  statusText: required(text),
  userType: required(text),
  partnerLevel: required(integer),
  /** `null` when no phone is bound. */
  boundPhone: nullable(text),
  /** `null` when no e-mail is bound. */
  boundEmail: nullable(text),
});

/** `data.account`: the account's money. */
export const accountFunds = object({
  balance: required(money),
  creditLine: required(money),
  creditUsed: required(money),
  creditAvailable: required(money),
  trustedBalance: required(money),
  /** `balance + creditAvailable`. */
  totalAvailable: required(money),
});

/** `data.api_key`: the key as the service reports it, never the secret. */
export const apiKeyInfo = object({
  /** The key's identifier; `null` when the service has none to show. */
  appId: nullable(text),
  /** The IP address the key was last used from; `null` before first use. */
  lastUsedIp: nullable(text),
});

export const userData = object({
  user: required(accountUser),
  account: required(accountFunds),
  apiKey: required(apiKeyInfo),
  /** `YYYY-MM-DD HH:MM:SS`. */
  serverTime: required(text),
});
