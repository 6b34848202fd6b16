import * as path from "node:path";

/** A TSIG key as named.conf declares it and a client signs with it. */
export interface BindKey {
  /** Absolute, with the trailing dot: `certreseller-e2e.` */
  name: string;
  /** BIND's name for it: `hmac-sha256`, `hmac-sha512`, ... */
  algorithm: string;
  /** Base64. */
  secret: string;
}

/** A primary zone the server is authoritative for. */
export interface BindZone {
  /** Absolute, with the trailing dot: `e2e.test.` */
  name: string;
  /**
   * Key names granted TXT and CNAME updates anywhere in the zone
   * (`update-policy { grant <key> zonesub TXT CNAME; }`). Empty: the zone
   * takes no updates at all (`allow-update { none; }`), so an UPDATE for it is
   * REFUSED.
   */
  updaters: string[];
}

/** The files of one server, by path inside its folder. */
export function bindFiles(dir: string, port: number, zones: readonly BindZone[], keys: readonly BindKey[]): Map<string, string> {
  const files = new Map<string, string>();
  files.set(path.join(dir, "named.conf"), namedConf(dir, port, zones, keys));
  for (const zone of zones) files.set(zoneFilePath(dir, zone), zoneFile(zone));
  return files;
}

export const UPDATE_LOG = "updates.log";
export const GENERAL_LOG = "named.log";

const bare = (name: string) => name.replace(/\.$/, "");
const zoneFilePath = (dir: string, zone: BindZone) => path.join(dir, `${bare(zone.name)}.zone`);

/**
 * Everything in the temporary folder (pid, session key, journals, logs) so
 * several servers run side by side and nothing touches /etc/bind or
 * /var/cache/bind. No recursion, no rndc channel, no DNSSEC validation: an
 * authoritative server only, which also keeps start-up under a second.
 */
/**
 * The `options` and `controls` of a test server: authoritative only, on
 * loopback at `port`, every file it writes in `dir`.
 *
 * @example
 * serverOptions("/tmp/bind-x", 53053) // "options {\n  directory \"/tmp/bind-x\";…"
 */
export function serverOptions(dir: string, port: number): string {
  const q = (s: string) => JSON.stringify(s);
  return `options {
  directory ${q(dir)};
  pid-file ${q(path.join(dir, "named.pid"))};
  session-keyfile ${q(path.join(dir, "session.key"))};
  managed-keys-directory ${q(dir)};
  listen-on port ${port} { 127.0.0.1; };
  listen-on-v6 { none; };
  recursion no;
  allow-query { any; };
  dnssec-validation no;
  notify no;
};
controls { };`;
}

function namedConf(dir: string, port: number, zones: readonly BindZone[], keys: readonly BindKey[]): string {
  const q = (s: string) => JSON.stringify(s);
  const keyBlocks = keys.map((k) => `key ${q(k.name)} {\n  algorithm ${k.algorithm};\n  secret ${q(k.secret)};\n};`);
  const zoneBlocks = zones.map((z) => {
    const policy =
      z.updaters.length === 0
        ? "  allow-update { none; };"
        : `  update-policy {\n${z.updaters.map((k) => `    grant ${k} zonesub TXT CNAME;`).join("\n")}\n  };`;
    return `zone ${q(bare(z.name))} {\n  type primary;\n  file ${q(zoneFilePath(dir, z))};\n${policy}\n};`;
  });
  return `${serverOptions(dir, port)}

logging {
  channel updates { file ${q(path.join(dir, UPDATE_LOG))}; severity info; print-time yes; print-category yes; print-severity yes; };
  channel general { file ${q(path.join(dir, GENERAL_LOG))}; severity info; print-time yes; print-category yes; print-severity yes; };
  category update { updates; };
  category update-security { updates; };
  category security { updates; general; };
  category default { general; };
};

${keyBlocks.join("\n\n")}

${zoneBlocks.join("\n\n")}
`;
}

/** SOA and NS only: the validation records arrive by UPDATE. A 60 s negative TTL keeps lookups of a fresh record quick. */
function zoneFile(zone: BindZone): string {
  const origin = zone.name;
  return `$ORIGIN ${origin}
$TTL 60
@   IN SOA ns.${origin} hostmaster.${origin} 1 3600 600 86400 60
@   IN NS  ns.${origin}
ns  IN A   127.0.0.1
`;
}
