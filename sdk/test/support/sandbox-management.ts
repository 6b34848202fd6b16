/**
 * One call to the sandbox's management API (docs/design.md), for sdk tests:
 * JSON in, the envelope's `data` (or the bare body) out, and a thrown error
 * naming the route on any non-2xx answer.
 */
export async function managementCall<T = any>(managementUrl: string, method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${managementUrl}${route}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  if (!res.ok) throw new Error(`management ${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
  return json && typeof json === "object" && "data" in json && "code" in json ? json.data : json;
}
