import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/index.js";
import { call, mgmt, rawCall, withSandbox } from "../support/sandbox.js";

let sb: RunningSandbox;
const logLines: string[] = [];
beforeAll(async () => {
  sb = await withSandbox({ logRequests: (l) => logLines.push(l) });
});
afterAll(() => sb.stop());

describe("partner transport", () => {
  it("answers on /partner/<Name>/, /partner/<Name>/index.php and without the slash", async () => {
    for (const path of ["/partner/GetUserData/", "/partner/GetUserData/index.php", "/partner/GetUserData"]) {
      const env = await call(sb, "GetUserData", {}, { path });
      expect(env.code, path).toBe(200);
    }
  });

  it("refuses other HTTP methods with 405 in the envelope and Allow: POST", async () => {
    const res = await rawCall(sb, "GetUserData", {}, { method: "GET" });
    expect(res.status).toBe(200);
    expect(res.headers.get("allow")).toBe("POST");
    expect((await res.json()).code).toBe(405);
    const put = await rawCall(sb, "CreateOrder", {}, { method: "PUT" });
    expect((await put.json()).code).toBe(405);
  });

  it("answers 404 for an unknown operation", async () => {
    expect((await call(sb, "BuyEverything")).code).toBe(404);
  });

  it("accepts the key in the body, X-API-Key, a Bearer token, and the secret alone", async () => {
    const key = sb.accounts[0]!.apiKey;
    expect(key).toMatch(/^ak_[a-z0-9]{24}:[0-9a-f]{64}$/);
    for (const placement of ["body", "header", "bearer"] as const) {
      for (const encoding of ["json", "form"] as const) {
        const env = await call(sb, "GetUserData", {}, { placement, encoding });
        expect(env.code, `${placement}/${encoding}`).toBe(200);
        expect(env.data.user.username).toBe("acme-ops");
        expect(env.data.api_key.app_id).toBe(key.split(":")[0]);
      }
    }
    const secretOnly = await call(sb, "GetUserData", {}, { key: key.split(":")[1]! });
    expect(secretOnly.data.user.username).toBe("acme-ops");
  });

  it("answers 401 without a key, with an unknown key, or with a secret under another app id", async () => {
    expect((await call(sb, "GetUserData", {}, { key: null })).code).toBe(401);
    expect((await call(sb, "GetUserData", {}, { key: `ak_${"x".repeat(24)}:${"0".repeat(64)}` })).code).toBe(401);
    const [, secret] = sb.accounts[0]!.apiKey.split(":");
    const [otherApp] = sb.accounts[1]!.apiKey.split(":");
    const env = await call(sb, "GetUserData", {}, { key: `${otherApp}:${secret}` });
    expect(env.code).toBe(401);
    expect(env.data.field).toBe("apikey");
  });

  it("answers 403 for a banned account, a disabled key and an expired key", async () => {
    const created = await mgmt(sb, "POST", "/accounts", { username: "to-ban", balance: "10.00" });
    expect(created.status).toBe(201);
    const key = created.body.apiKey as string;
    expect((await call(sb, "GetUserData", {}, { key })).code).toBe(200);
    await mgmt(sb, "PATCH", "/accounts/to-ban", { status: 0 });
    expect((await call(sb, "GetUserData", {}, { key })).code).toBe(403);
    await mgmt(sb, "PATCH", "/accounts/to-ban", { status: 1, keyStatus: 0 });
    expect((await call(sb, "GetUserData", {}, { key })).code).toBe(403);
    await mgmt(sb, "PATCH", "/accounts/to-ban", { keyStatus: 1, keyExpiresAt: "2000-01-01T00:00:00Z" });
    expect((await call(sb, "GetUserData", {}, { key })).code).toBe(403);
  });

  it("reports last_used_ip and carries a request id in the X-Request-Id header, the one the log shows", async () => {
    const res = await rawCall(sb, "GetUserData");
    const env = await res.json();
    expect(env.data.api_key.last_used_ip).toBe("127.0.0.1");
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(/^req_/);
    expect(JSON.stringify(env)).not.toContain(id);
    expect((await mgmt(sb, "GET", "/requests")).body.some((e: any) => e.requestId === id)).toBe(true);
  });

  it("refuses a malformed JSON body with 400 and an unsupported content type", async () => {
    const res = await fetch(`${sb.url}/partner/GetUserData/`, { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    expect((await res.json()).code).toBe(400);
    const xml = await fetch(`${sb.url}/partner/GetUserData/`, { method: "POST", headers: { "content-type": "text/xml" }, body: "<a/>" });
    expect((await xml.json()).code).toBe(400);
  });

  it("mirrors the envelope code as the HTTP status when asked, at run time", async () => {
    expect((await rawCall(sb, "GetUserData", {}, { key: null })).status).toBe(200);
    await mgmt(sb, "PUT", "/config", { mirrorStatus: true });
    try {
      expect((await rawCall(sb, "GetUserData", {}, { key: null })).status).toBe(401);
      expect((await rawCall(sb, "GetUserData", {}, { method: "GET" })).status).toBe(405);
      expect((await rawCall(sb, "GetUserData")).status).toBe(200);
    } finally {
      await mgmt(sb, "PUT", "/config", { mirrorStatus: false });
    }
  });

  it("logs requests with the app id but never the key", async () => {
    const { body } = await mgmt(sb, "GET", "/requests");
    expect(body.length).toBeGreaterThan(5);
    const secret = sb.accounts[0]!.apiKey.split(":")[1]!;
    expect(JSON.stringify(body)).not.toContain(secret);
    expect(logLines.join("\n")).not.toContain(secret);
    expect(body.some((e: any) => e.operation === "GetUserData" && e.appId === sb.accounts[0]!.apiKey.split(":")[0])).toBe(true);
    expect(logLines.some((l) => l.includes("GetUserData code=200"))).toBe(true);
  });
});
