import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/index.js";
import { parseBody, parseForm } from "../../src/web/body.js";
import { call, DV_MULTI, withSandbox } from "../support/sandbox.js";

// A body is parsed before authentication, so whatever it writes must stay in
// that body: `__proto__[apikey]=x` once gave every object in the process an
// inherited `apikey`, and every later request an account.
const inherited = (): unknown => (({}) as Record<string, unknown>).apikey;

afterEach(() => {
  // A failing assertion must not leave the pollution behind for other tests.
  delete (Object.prototype as Record<string, unknown>).apikey;
  delete (Object.prototype as Record<string, unknown>).order_no;
});

describe("parseForm", () => {
  it.each([
    "__proto__[apikey]=x",
    "__proto__[order_no]=CERT1",
    "constructor[prototype][apikey]=x",
    "company_info[__proto__][apikey]=x",
    "domain[constructor]=x",
    "prototype=x",
    "__proto__=x",
    "san_domains[__proto__][]=x",
  ])("refuses %s with a 400 naming the field, and Object.prototype is untouched", (body) => {
    const field = decodeURIComponent(body.split("=")[0]!);
    expect(() => parseForm(body)).toThrow(expect.objectContaining({ code: 400, message: expect.stringContaining(JSON.stringify(field)) }));
    expect(inherited()).toBeUndefined();
    expect((({}) as Record<string, unknown>).order_no).toBeUndefined();
  });

  it("builds prototype-free objects at every level, so nothing is inherited through them", () => {
    const body = parseForm("domain=example.com&company_info[company_name]=ACME&san_domains[]=www.example.com");
    expect(Object.getPrototypeOf(body)).toBeNull();
    expect(Object.getPrototypeOf(body.company_info)).toBeNull();
    expect(body).toEqual({ domain: "example.com", company_info: { company_name: "ACME" }, san_domains: ["www.example.com"] });
    expect(body.apikey).toBeUndefined();
    expect("toString" in body).toBe(false);
  });

  it("keys that only resemble the reserved names are ordinary fields", () => {
    expect(parseForm("proto=1&constructor_name=2&__proto=3")).toEqual({ proto: "1", constructor_name: "2", __proto: "3" });
  });
});

describe("parseBody (JSON)", () => {
  it.each([
    ['{"__proto__":{"apikey":"x"}}', "__proto__"],
    ['{"company_info":{"constructor":{"prototype":{"apikey":"x"}}}}', "company_info.constructor"],
    ['{"san_domains":[{"__proto__":{"a":1}}]}', "san_domains[0].__proto__"],
  ])("refuses %s, naming %s", (text, path) => {
    expect(() => parseBody(text, "application/json")).toThrow(expect.objectContaining({ code: 400, message: expect.stringContaining(JSON.stringify(path)) }));
  });

  it("a JSON body is prototype-free too", () => {
    expect(Object.getPrototypeOf(parseBody('{"domain":"example.com"}', "application/json"))).toBeNull();
  });
});

describe("over HTTP, a polluting body changes nothing", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await withSandbox();
  });
  afterAll(() => sb.stop());

  const post = async (op: string, body: string, type = "application/x-www-form-urlencoded"): Promise<any> =>
    (await fetch(`${sb.url}/partner/${op}/`, { method: "POST", headers: { "content-type": type }, body })).json();

  it("the polluting request is refused (400), and a later request without a key is still 401", async () => {
    const key = encodeURIComponent(sb.accounts[0]!.apiKey);
    const refused = await post("GetUserData", `__proto__[apikey]=${key}&__proto__[order_no]=CERT1`);
    expect(refused).toMatchObject({ code: 400, data: { field: "__proto__[apikey]" } });
    expect(inherited()).toBeUndefined();

    const json = await post("GetUserData", JSON.stringify({ ["__proto__"]: { apikey: sb.accounts[0]!.apiKey } }), "application/json");
    expect(json.code).toBe(400);

    const anonymous = await call(sb, "GetUserData", {}, { key: null });
    expect(anonymous).toMatchObject({ code: 401, data: { field: "apikey" } });
    const anonymousOrder = await call(sb, "GetRecord", { order_no: "CERT1" }, { key: null });
    expect(anonymousOrder.code).toBe(401);
  });

  it("an inherited apikey is never a credential, even if something else polluted the process", async () => {
    (Object.prototype as Record<string, unknown>).apikey = sb.accounts[0]!.apiKey;
    try {
      expect((await call(sb, "GetUserData", {}, { key: null })).code).toBe(401);
      expect((await call(sb, "CreateOrder", DV_MULTI, { key: null, encoding: "json" })).code).toBe(401);
    } finally {
      delete (Object.prototype as Record<string, unknown>).apikey;
    }
  });

  it("a company_info sent as JSON text may not carry the reserved names either", async () => {
    const r = await call(sb, "CreateOrder", { product_code: "sandbox-ov-single", domain: "example.com", company_info: '{"__proto__":{"apikey":"x"}}' });
    expect(r).toMatchObject({ code: 400, data: { field: "company_info" } });
  });
});
