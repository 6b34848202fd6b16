import type { UserData } from "../types.js";
import type { UserStatus } from "../vocabulary.js";
import { integer, money, nullable, object, openInteger, required, text, type Reader } from "./read.js";

// GetUserData (spec 2.1, 4.1). A read: every listed field is required; the
// ones the service documents as possibly null read as null.

const user = object({
  id: required("id", integer),
  userId: required("user_id", text),
  username: required("username", text),
  status: required("status", openInteger<UserStatus>()),
  statusText: required("status_text", text),
  userType: required("user_type", text),
  partnerLevel: required("partner_level", integer),
  boundPhone: nullable("bound_phone", text),
  boundEmail: nullable("bound_email", text),
});

const account = object({
  balance: required("balance", money),
  creditLine: required("credit_line", money),
  creditUsed: required("credit_used", money),
  creditAvailable: required("credit_available", money),
  trustedBalance: required("trusted_balance", money),
  totalAvailable: required("total_available", money),
});

const apiKey = object({
  appId: nullable("app_id", text),
  lastUsedIp: nullable("last_used_ip", text),
});

export const userData: Reader<UserData> = object({
  user: required("user", user),
  account: required("account", account),
  apiKey: required("api_key", apiKey),
  serverTime: required("server_time", text),
});
