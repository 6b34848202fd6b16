/**
 * The provider's configuration through the plugin: CheckConfig, DiffConfig
 * and Configure, over the same declaration (PROVIDER_CONFIG) and the same
 * reading (`readSettings`, stack config first, then the environment) as the
 * dynamic resources.
 *
 * One plugin process serves one provider: the default provider, configured
 * from the stack's `certreseller:*` settings, or an explicit provider
 * resource (one per account), configured from its arguments.
 */
import { InvalidSettingError, PROVIDER_CONFIG, SETTING_SOURCES, readSettings, type ConfigSource } from "../provider/config.js";
import { entries } from "../schema/property.js";
import type { Props } from "./wire.js";

type SettingName = keyof typeof PROVIDER_CONFIG;
const SETTING_NAMES = Object.keys(PROVIDER_CONFIG) as SettingName[];

/** The declared-secret settings (the API key): wrapped as secrets in CheckConfig's answer. */
export const SECRET_SETTINGS: readonly string[] = entries(PROVIDER_CONFIG)
  .filter(([, p]) => "secret" in p && p.secret)
  .map(([name]) => name);

/**
 * A config source over a provider's arguments (plain values, secrets
 * unwrapped) and the engine's `variables` (`certreseller:apiKey` → value).
 * An explicit provider's boolean argument may arrive as a boolean or as its
 * JSON text; both read as the stack setting would.
 *
 * @example
 * configSource({ apiKey: "ak_1:s" }, {}).get("certreseller:apiKey") // "ak_1:s"
 */
export function configSource(args: Props, variables: Readonly<Record<string, string>>): ConfigSource {
  return {
    get(key) {
      const name = key.startsWith("certreseller:") ? key.slice("certreseller:".length) : key;
      const value = args[name];
      if (value !== undefined && value !== null) return typeof value === "string" ? value : JSON.stringify(value);
      return variables[key];
    },
  };
}

/** One problem with a setting, named as `pulumi config set` names it. */
export interface ConfigFailure {
  property: string;
  reason: string;
}

/**
 * Whether a provider URN names an explicit provider resource
 * (`pulumi:providers:certreseller::accountB`) rather than the engine's
 * default provider (`::default`, `::default_0_1_0`). An unknown URN (an engine
 * that sends none) reads as the default provider.
 */
export function isExplicitProvider(urn: string | undefined): boolean {
  if (!urn) return false;
  const name = urn.slice(urn.lastIndexOf("::") + 2);
  return !/^default(_|$)/.test(name);
}

/** The refusal of an explicit provider without its own key (see docs/evidence.md, "Which account buys"). */
export const EXPLICIT_PROVIDER_NEEDS_KEY =
  `an explicit certreseller provider buys with its own key only: give it apiKey (e.g. \`apiKey: \${keyB}\` from a secret stack setting). ` +
  `It never falls back to ${SETTING_SOURCES.apiKey.env}, which would buy under whichever account the environment holds without saying so.`;

/**
 * Which account a provider buys with, for its one preview line: the app id
 * (the key's part before `:`; a key that is the secret alone names none) and
 * where the key came from.
 *
 * @example
 * accountLine("urn:…::pulumi:providers:certreseller::accountB", "ak_b:s", "its apiKey")
 * // "provider accountB buys with account ak_b (its apiKey)"
 */
export function accountLine(urn: string | undefined, apiKey: string | undefined, keyFrom: string): string {
  const provider = isExplicitProvider(urn) ? `provider ${urn!.slice(urn!.lastIndexOf("::") + 2)}` : "the default provider";
  if (!apiKey) return `${provider} has no API key (${keyFrom})`;
  const account = apiKey.includes(":") ? `account ${apiKey.slice(0, apiKey.indexOf(":"))}` : "the account of a key given without its app id";
  return `${provider} buys with ${account} (${keyFrom})`;
}

/**
 * CheckConfig: every setting is read as `configure` will read it, so a bad
 * value fails the preview with the setting's name instead of the first
 * resource operation. `urn`: the provider's; an explicit provider must
 * carry its own key.
 */
export function checkConfig(news: Props, urn?: string): ConfigFailure[] {
  const failures: ConfigFailure[] = [];
  if (isExplicitProvider(urn) && (news.apiKey === undefined || news.apiKey === null || news.apiKey === "")) {
    failures.push({ property: "apiKey", reason: EXPLICIT_PROVIDER_NEEDS_KEY });
  }
  const source = configSource(news, {});
  for (const name of SETTING_NAMES) {
    const value = news[name];
    if (value === undefined || value === null || value === "") continue;
    const declared = PROVIDER_CONFIG[name].type.kind;
    if (declared === "string" && typeof value !== "string") {
      // A secret setting's value is never echoed, whatever it holds: name its kind only.
      const shown = SECRET_SETTINGS.includes(name) ? (Array.isArray(value) ? "a list" : typeof value === "object" ? "an object" : `a ${typeof value}`) : JSON.stringify(value);
      failures.push({ property: name, reason: `${SETTING_SOURCES[name].config} must be a string, not ${shown}` });
    }
  }
  try {
    readSettings(source, {});
  } catch (error) {
    if (!(error instanceof InvalidSettingError)) throw error; // readSettings refuses a setting only this way
    failures.push({ property: error.setting, reason: error.message });
  }
  const baseUrl = source.get(SETTING_SOURCES.baseUrl.config);
  if (baseUrl) {
    let url: URL | undefined;
    try {
      url = new URL(baseUrl);
    } catch {
      url = undefined;
    }
    if (!url || !["https:", "http:"].includes(url.protocol)) {
      failures.push({ property: "baseUrl", reason: `${SETTING_SOURCES.baseUrl.config} must be an http(s) URL, not ${JSON.stringify(baseUrl)}` });
    }
  }
  return failures;
}

/**
 * DiffConfig: which settings changed. Never a replacement: replacing a
 * provider replaces every resource it manages, and for an Order that is a
 * second purchase. A new key or base URL takes effect in place (the
 * evidence rules then guard refresh and destroy under another account).
 */
export function diffConfig(olds: Props, news: Props): string[] {
  return SETTING_NAMES.filter((name) => JSON.stringify(olds[name] ?? null) !== JSON.stringify(news[name] ?? null));
}
