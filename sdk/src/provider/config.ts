import * as os from "node:os";
import * as path from "node:path";
import { parseDnsServers } from "../dns/server-address.js";
import * as t from "../schema/property.js";

/** What a provider needs from stack config or the environment. */
export interface ProviderSettings {
  /** `certreseller:apiKey` or `CERTRESELLER_API_KEY`. Never logged, never in state. */
  readonly apiKey?: string;
  /** `certreseller:baseUrl` or `CERTRESELLER_BASE_URL`. */
  readonly baseUrl?: string;
  /**
   * `certreseller:allowInsecureHttp` or `CERTRESELLER_ALLOW_INSECURE_HTTP`
   * (`true`/`false`): accept a plain `http://` base URL on a host that is not
   * loopback. Off by default — every request carries the API key, and it
   * must not cross a network in clear text. Loopback (`127.0.0.1`, `::1`,
   * `localhost`, e.g. the sandbox) needs no setting.
   */
  readonly allowInsecureHttp?: boolean;
  /** `certreseller:journalDir` or `CERTRESELLER_JOURNAL_DIR`; see {@link defaultJournalDir}. */
  readonly journalDir: string;
  /** True when neither setting names `journalDir` (it is the default): a bucket backend then keeps the journal beside its state. */
  readonly journalDirDefaulted?: boolean;
  /**
   * `certreseller:journalUrl` or `CERTRESELLER_JOURNAL_URL`: an
   * `s3://`, `gs://` or `azblob://` journal that outlives the machine (CI
   * runners); when set it is used instead of `journalDir`. Credentials come
   * from each cloud's own environment and credential chain, never from
   * stack config.
   */
  readonly journalUrl?: string;
  /**
   * `certreseller:dnsResolvers` or `CERTRESELLER_DNS_RESOLVERS`: the DNS
   * servers (`address:port`, canonical) the CAA check and the propagation
   * check ask to find CAA records, zones and their servers; absent: the
   * system's resolvers.
   */
  readonly dnsResolvers?: readonly string[];
  /**
   * `certreseller:organization` or `CERTRESELLER_ORGANIZATION`: the Pulumi
   * organisation of the stack, for the provider plugin's purchase journal
   * (the engine tells a plugin none); see `pluginJournalScope`.
   */
  readonly organization?: string;
  /**
   * `CERTRESELLER_NOW` (ISO 8601): the time the provider takes as "now" —
   * rehearse a renewal (`CERTRESELLER_NOW=2027-11-01 pulumi preview` shows
   * what a preview on that day would replace), or follow a sandbox whose
   * clock was advanced. Environment only: it is not a stack setting.
   */
  readonly now?: string;
}

/**
 * The provider configuration as one declaration: each stack setting
 * (`certreseller:<name>`), its type, the environment variable read when it
 * is not set, and what it means — for the package schema, the reference and
 * {@link SETTING_SOURCES}. `CERTRESELLER_NOW` is environment only (not a
 * stack setting), so it is not declared here.
 */
export const PROVIDER_CONFIG = {
  apiKey: {
    description:
      "The Partner API key, `ak_…:…` (`app_id:secret`) or the secret alone. Set it as a secret (`pulumi config set --secret`): a key set without " +
      "`--secret` is stored in plaintext in `Pulumi.<stack>.yaml` and in the backend's update history, and by TypeScript programs in state too. " +
      "Never logged; the environment variable keeps it out of all three.",
    type: t.string,
    secret: true,
    env: ["CERTRESELLER_API_KEY"],
  },
  baseUrl: {
    description: "The API's base URL (the sandbox prints its own).",
    type: t.string,
    env: ["CERTRESELLER_BASE_URL"],
  },
  allowInsecureHttp: {
    description:
      "`true` to allow a plain `http://` base URL to a host that is not loopback. Off by default: every request carries the API key, and it must not " +
      "cross a network in clear text. Loopback (`127.0.0.1`, `::1`, `localhost`, e.g. the sandbox) never needs it. Anything but a clear yes or no is refused.",
    type: t.boolean,
    defaultNote: "`false`",
    env: ["CERTRESELLER_ALLOW_INSECURE_HTTP"],
  },
  journalDir: {
    description:
      "The local purchase journal, which stops a second purchase after a killed `up`. Not durable on CI runners (see `journalUrl`). Unset, with an " +
      "`s3://`, `gs://` or `azblob://` backend, the journal lives beside the state (`<backend>/.certreseller/journal`).",
    type: t.string,
    defaultNote: "`~/.certreseller/journal`, or beside the state with a bucket backend",
    env: ["CERTRESELLER_JOURNAL_DIR"],
  },
  journalUrl: {
    description:
      "`s3://<bucket>/<prefix>[?endpoint=…&region=…]`, `gs://<bucket>/<prefix>` or `azblob://<container>/<prefix>`: the journal in a bucket that " +
      "outlives the machine (what CI needs); used instead of `journalDir`. Credentials come from each cloud's own chain (AWS: environment, " +
      "`AWS_PROFILE`, SSO, web identity, container, instance metadata; Google: Application Default Credentials; Azure: " +
      "`AZURE_STORAGE_CONNECTION_STRING`, `AZURE_STORAGE_ACCOUNT` with `AZURE_STORAGE_KEY` / `AZURE_STORAGE_SAS_TOKEN`, or `DefaultAzureCredential`), " +
      "never from stack config.",
    type: t.string,
    env: ["CERTRESELLER_JOURNAL_URL"],
  },
  dnsResolvers: {
    description:
      "DNS servers, comma-separated `address:port` (`192.0.2.53:53`, `[2001:db8::53]:53`; the port defaults to 53), that the Order's CAA check " +
      "and the Certificate's propagation check ask for CAA records and to find each zone's authoritative servers. Set it where the system's " +
      "resolvers do not see the DNS the CA sees (a split-horizon network), or to point the checks at a test server; against a sandbox on this " +
      "machine, setting it turns both checks on.",
    type: t.string,
    defaultNote: "the system's resolvers",
    env: ["CERTRESELLER_DNS_RESOLVERS"],
  },
  organization: {
    description:
      "The Pulumi organisation of the stack, for the provider plugin's purchase journal (the engine tells a provider plugin no organisation). " +
      "Required with a Pulumi Cloud (`https://`) backend, where two organisations may each hold a stack of the same project and name: an Order's " +
      "preview fails without it. On an explicit provider write `organization: ${pulumi.organization}` (YAML), `ctx.Organization()` (Go), " +
      "`pulumi.get_organization()` (Python). Self-managed backends (`file://`, `s3://`, …) have the one organisation `organization` and need none. " +
      "The TypeScript resources take the organisation from the program and ignore it.",
    type: t.string,
    defaultNote: "`organization` on self-managed backends; none on Pulumi Cloud",
    env: ["CERTRESELLER_ORGANIZATION"],
  },
} as const satisfies t.PropertyTable;

/** The name of a provider setting. */
type SettingName = keyof typeof PROVIDER_CONFIG;

/** Where each setting is read: its stack config key and its environment variable. */
type SettingSources = {
  readonly [K in SettingName]: { readonly config: `certreseller:${K}`; readonly env: (typeof PROVIDER_CONFIG)[K]["env"][0] };
};

/** Stack config keys and the environment variables that back them, from {@link PROVIDER_CONFIG}. */
export const SETTING_SOURCES: SettingSources = Object.fromEntries(
  Object.entries(PROVIDER_CONFIG).map(([name, setting]) => [name, { config: `certreseller:${name}`, env: setting.env[0] }]),
) as SettingSources;

/**
 * The journal outlives the process and the checkout on purpose: it is what
 * stops a second purchase after a killed `up`, so it sits in the user's home,
 * not in a build folder that `git clean` removes.
 */
export function defaultJournalDir(): string {
  return path.join(os.homedir(), ".certreseller", "journal");
}

/** Minimal view of the config bag the engine hands to `configure`. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

/**
 * Reads the settings: stack config first (what `configure` received, secrets
 * already decrypted), then the environment. Empty strings count as unset.
 */
export function readSettings(config: ConfigSource | undefined, env: NodeJS.ProcessEnv = process.env): ProviderSettings {
  const pick = (source: { config: string; env: string }): string | undefined => {
    const fromConfig = config?.get(source.config);
    if (fromConfig !== undefined && fromConfig !== "") return fromConfig;
    const fromEnv = env[source.env];
    return fromEnv !== undefined && fromEnv !== "" ? fromEnv : undefined;
  };
  const allowInsecureHttp = readFlag(pick(SETTING_SOURCES.allowInsecureHttp), SETTING_SOURCES.allowInsecureHttp);
  const dnsResolvers = readServers(pick(SETTING_SOURCES.dnsResolvers), SETTING_SOURCES.dnsResolvers);
  const organization = readOrganization(pick(SETTING_SOURCES.organization), SETTING_SOURCES.organization);
  return {
    apiKey: pick(SETTING_SOURCES.apiKey),
    baseUrl: pick(SETTING_SOURCES.baseUrl),
    ...(allowInsecureHttp === undefined ? {} : { allowInsecureHttp }),
    journalDir: pick(SETTING_SOURCES.journalDir) ?? defaultJournalDir(),
    ...(pick(SETTING_SOURCES.journalDir) === undefined ? { journalDirDefaulted: true } : {}),
    ...(pick(SETTING_SOURCES.journalUrl) ? { journalUrl: pick(SETTING_SOURCES.journalUrl) } : {}),
    ...(dnsResolvers ? { dnsResolvers } : {}),
    ...(organization ? { organization } : {}),
    now: env.CERTRESELLER_NOW || undefined,
  };
}

/**
 * A yes/no setting. Config values arrive as strings (`pulumi config set
 * certreseller:allowInsecureHttp true`); anything but a clear yes or no is
 * refused rather than guessed, since a wrong guess either blocks every call
 * or sends the key in clear text.
 */
function readFlag(value: string | undefined, source: { config: string; env: string }): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (["true", "1", "yes", "on"].includes(v)) return true;
  if (["false", "0", "no", "off"].includes(v)) return false;
  throw new InvalidSettingError("allowInsecureHttp", `certreseller: ${source.config} / ${source.env} must be true or false, not ${JSON.stringify(value)}`);
}

/** A server list setting; a bad address is refused, naming the setting, rather than dropped (a check would then ask the wrong DNS). */
function readServers(value: string | undefined, source: { config: string; env: string }): string[] | undefined {
  if (value === undefined) return undefined;
  const parsed = parseDnsServers(value);
  if (parsed.reason !== undefined) throw new InvalidSettingError("dnsResolvers", `certreseller: ${source.config} / ${source.env} ${parsed.reason}`);
  return parsed.servers;
}

/** An organisation name as Pulumi spells them; anything else (a `;` would split the journal key) is refused, naming the setting. */
function readOrganization(value: string | undefined, source: { config: string; env: string }): string | undefined {
  if (value === undefined) return undefined;
  if (/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value)) return value;
  throw new InvalidSettingError(
    "organization",
    `certreseller: ${source.config} / ${source.env} must be a Pulumi organisation name (letters, digits, \`.\`, \`_\`, \`-\`), not ${JSON.stringify(value)}`,
  );
}

/**
 * A setting has a value it cannot have; the message names the config key
 * and the environment variable, `setting` the setting.
 *
 * @example
 * try { readSettings(config); } catch (e) { if (e instanceof InvalidSettingError) console.log(e.setting); } // "dnsResolvers"
 */
export class InvalidSettingError extends Error {
  override readonly name = "InvalidSettingError";
  constructor(
    readonly setting: keyof typeof SETTING_SOURCES,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The host of the configured base URL, or undefined when it is not a URL:
 * what the loopback rules (a sandbox on this machine) look at.
 *
 * @example
 * baseUrlHost({ baseUrl: "http://127.0.0.1:8080", journalDir }) // "127.0.0.1"
 */
export function baseUrlHost(settings: Pick<ProviderSettings, "baseUrl">): string | undefined {
  try {
    return new URL(settings.baseUrl ?? "").hostname;
  } catch {
    return undefined;
  }
}

/** A required setting is missing; the message names the config key and the env var. */
export class MissingSettingError extends Error {
  override readonly name = "MissingSettingError";
  constructor(readonly setting: keyof typeof SETTING_SOURCES) {
    const source = SETTING_SOURCES[setting];
    super(
      `certreseller: no ${setting} configured. Set it with ` +
        `\`pulumi config set ${setting === "apiKey" ? "--secret " : ""}${source.config} <value>\` ` +
        `or the environment variable ${source.env}.`,
    );
  }
}

/** Settings with the API key and base URL known to be present. */
export interface CompleteSettings extends ProviderSettings {
  readonly apiKey: string;
  readonly baseUrl: string;
}

/** Throws {@link MissingSettingError} unless key and base URL are set. */
export function requireApiSettings(settings: ProviderSettings): CompleteSettings {
  if (!settings.apiKey) throw new MissingSettingError("apiKey");
  if (!settings.baseUrl) throw new MissingSettingError("baseUrl");
  return settings as CompleteSettings;
}
