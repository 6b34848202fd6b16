import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { parseHostPort, type HostPort } from "./address.js";
import type { CheckResult } from "./types.js";

const MAX_REDIRECTS = 5;
/** Validation files are a few lines; anything larger is not one. */
const MAX_BODY_BYTES = 64 * 1024;

export interface HttpCheckOptions {
  hostOverrides: ReadonlyMap<string, HostPort>;
  timeoutMs: number;
}

/**
 * Fetches `link` (following up to five redirects, as CAs do for file
 * validation) and compares the body with `expected`, both trimmed and with
 * CRLF line ends normalised.
 */
export async function checkFile(link: string, expected: string, opts: HttpCheckOptions): Promise<CheckResult> {
  const signal = AbortSignal.timeout(opts.timeoutMs);
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return { verified: false, detail: `the record's link "${link}" is not a URL` };
  }
  for (let hop = 0; ; hop++) {
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return { verified: false, detail: `${url.href} is not http(s); file validation fetches over HTTP or HTTPS only` };
    }
    let answer: { status: number; location?: string; body: string };
    try {
      answer = await get(url, opts, signal);
    } catch (error) {
      const reason = signal.aborted ? `timed out after ${opts.timeoutMs} ms` : error instanceof Error ? error.message : String(error);
      return { verified: false, detail: `GET ${url.href} failed: ${reason}` };
    }
    if (answer.status >= 300 && answer.status < 400 && answer.location !== undefined) {
      if (hop === MAX_REDIRECTS) return { verified: false, detail: `GET ${link}: more than ${MAX_REDIRECTS} redirects` };
      url = new URL(answer.location, url);
      continue;
    }
    if (answer.status !== 200) return { verified: false, detail: `GET ${url.href} answered HTTP ${answer.status}` };
    const want = normalise(expected);
    const got = normalise(answer.body);
    if (got === want) return { verified: true, detail: `GET ${url.href} served the expected content` };
    return {
      verified: false,
      detail: `GET ${url.href} served different content (${got.length} characters, expected ${want.length}): ${JSON.stringify(excerpt(got))}`,
    };
  }
}

function get(url: URL, opts: HttpCheckOptions, signal: AbortSignal): Promise<{ status: number; location?: string; body: string }> {
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const override = opts.hostOverrides.get(hostname.toLowerCase());
  const secure = url.protocol === "https:";
  const options: https.RequestOptions = {
    host: override?.host ?? hostname,
    port: override?.port ?? (url.port === "" ? (secure ? 443 : 80) : Number(url.port)),
    path: `${url.pathname}${url.search}`,
    method: "GET",
    // The Host header (and SNI) name the domain even when an override sends
    // the connection elsewhere, as they would reach the real site.
    headers: { host: url.host, "user-agent": "certreseller-sandbox-validation/1", accept: "*/*" },
    signal,
    agent: false,
  };
  if (secure) {
    // A test tool: sites under test serve self-signed or sandbox-issued
    // certificates, so the server certificate is deliberately not verified.
    options.rejectUnauthorized = false;
    if (isIP(hostname) === 0) options.servername = hostname;
  }
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(options, (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          response.destroy(new Error(`body larger than ${MAX_BODY_BYTES} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      response.on("error", reject);
      response.on("end", () => resolve({ status, body: Buffer.concat(chunks).toString("utf8"), ...(location !== undefined ? { location } : {}) }));
    });
    request.on("error", reject);
    request.end();
  });
}

export function overridesMap(overrides: Record<string, string> | undefined): Map<string, HostPort> {
  const map = new Map<string, HostPort>();
  for (const [host, address] of Object.entries(overrides ?? {})) {
    const parsed = parseHostPort(address);
    if ("error" in parsed) throw new TypeError(`hostOverrides["${host}"]: ${parsed.error}`);
    map.set(host.toLowerCase().replace(/^\[|\]$/g, ""), parsed);
  }
  return map;
}

function normalise(text: string): string {
  return text.replace(/\r\n?/g, "\n").trim();
}

function excerpt(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
