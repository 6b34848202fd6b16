/**
 * The few calls the testing aids make to a sandbox's management API
 * (`<sandbox url>/management`, see docs/design.md). Plain `fetch`: these run
 * in the provider host against a local sandbox, with no credential.
 */
import { isUnknown } from "../provider/unknown.js";

/** A management call failed; names the route, the status and the sandbox's answer. */
export class SandboxManagementError extends Error {
  override readonly name = "SandboxManagementError";
  constructor(
    message: string,
    readonly status: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const TIMEOUT_MS = 10_000;

/**
 * Sends `body` as JSON to `<managementUrl>/<route>`. A body is always sent:
 * the sandbox reads a DELETE without one as "delete everything".
 */
export async function managementCall(managementUrl: string, method: "GET" | "POST" | "DELETE", route: string, body?: object): Promise<unknown> {
  const url = `${managementUrl.replace(/\/+$/, "")}/${route}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: body ? { "content-type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new SandboxManagementError(`${method} ${url} failed: ${(error as Error).message} (is the sandbox running?)`, undefined, { cause: error });
  }
  const text = await res.text();
  if (!res.ok) throw new SandboxManagementError(`${method} ${url} answered HTTP ${res.status}: ${text.slice(0, 300)}`, res.status);
  return text === "" ? undefined : (JSON.parse(text) as unknown);
}

/** Rejects anything but an absolute http(s) URL; the reason names the rule. */
export function managementUrlProblem(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return "managementUrl is required: the sandbox's management URL (`<sandbox url>/management`)";
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return undefined;
  } catch {
    // fall through
  }
  return `managementUrl ${JSON.stringify(value)} is not an http(s) URL`;
}

const answering = new Map<string, Promise<string | undefined>>();

/**
 * Why the sandbox at `managementUrl` cannot be reached, or undefined when
 * its management API answers (a GET of `health`, which changes nothing).
 * The record resources ask this at preview, so a wrong URL or a stopped
 * sandbox fails before an Order is bought rather than after. Asked once per
 * URL per provider process.
 *
 * @example
 * await unreachableManagement("http://127.0.0.1:1/management") // "managementUrl http://127.0.0.1:1/management does not answer: GET … failed: …"
 */
export function unreachableManagement(managementUrl: string): Promise<string | undefined> {
  let asked = answering.get(managementUrl);
  if (!asked) {
    asked = managementCall(managementUrl, "GET", "health").then(
      (answer) =>
        (answer as { ok?: unknown } | undefined)?.ok === true
          ? undefined
          : `managementUrl ${managementUrl} does not answer as a sandbox's management API (GET health answered ${JSON.stringify(answer)?.slice(0, 200)})`,
      (error: unknown) => `managementUrl ${managementUrl} does not answer: ${(error as Error).message}`,
    );
    answering.set(managementUrl, asked);
  }
  return asked;
}

/**
 * The check of a record resource's `managementUrl`: its form, then whether
 * the sandbox answers there. No failure for a value not known yet (preview).
 */
export async function managementUrlFailures(value: unknown): Promise<{ property: string; reason: string }[]> {
  if (isUnknown(value)) return [];
  const problem = managementUrlProblem(value) ?? (await unreachableManagement(value as string));
  return problem ? [{ property: "managementUrl", reason: problem }] : [];
}
