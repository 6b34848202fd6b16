import { describe, expect, it } from "vitest";
import { readSettings } from "../../src/provider/config.js";
import { SECRET_SETTINGS, accountLine, checkConfig, configSource, diffConfig, isExplicitProvider } from "../../src/plugin/configuration.js";
import { OrganizationRequiredError, pluginJournalScope } from "../../src/journal/key.js";

const providerUrn = (name: string) => `urn:pulumi:dev::p::pulumi:providers:certreseller::${name}`;

describe("plugin configuration", () => {
  it("reads an explicit provider's arguments first, then the engine's variables", () => {
    const source = configSource({ apiKey: "ak_a:1", allowInsecureHttp: true }, { "certreseller:apiKey": "ak_b:2", "certreseller:baseUrl": "https://api.example" });
    expect(source.get("certreseller:apiKey")).toBe("ak_a:1");
    expect(source.get("certreseller:baseUrl")).toBe("https://api.example");
    // A boolean argument reads as the stack setting's text would.
    expect(source.get("certreseller:allowInsecureHttp")).toBe("true");
    expect(readSettings(configSource({ apiKey: "ak_a:1", journalDir: "/j" }, {}))).toMatchObject({ apiKey: "ak_a:1", journalDir: "/j" });
  });

  it("CheckConfig names the setting and the rule", () => {
    expect(checkConfig({ allowInsecureHttp: "maybe" })).toEqual([{ property: "allowInsecureHttp", reason: expect.stringMatching(/true or false/) }]);
    expect(checkConfig({ baseUrl: "ftp://x" })).toEqual([{ property: "baseUrl", reason: expect.stringMatching(/http\(s\) URL/) }]);
    expect(checkConfig({ journalDir: 7 })).toEqual([{ property: "journalDir", reason: expect.stringMatching(/must be a string/) }]);
    expect(checkConfig({ apiKey: "ak_1:s", baseUrl: "https://api.example", allowInsecureHttp: "false" })).toEqual([]);
  });

  it("CheckConfig never echoes a secret setting's value, whatever its type (an apiKey written as a bare YAML number)", () => {
    const failures = checkConfig({ apiKey: 123456789012, baseUrl: "https://api.example" });
    expect(failures).toEqual([{ property: "apiKey", reason: expect.stringMatching(/certreseller:apiKey must be a string, not a number/) }]);
    expect(JSON.stringify(failures)).not.toContain("123456789012");
    for (const value of [true, { secret: "s3cr3t-value" }, ["s3cr3t-value"]]) {
      expect(JSON.stringify(checkConfig({ apiKey: value }))).not.toMatch(/s3cr3t-value|true/);
    }
  });

  it("an explicit provider must carry its own key; the default provider may take the environment's", () => {
    expect(isExplicitProvider(providerUrn("default"))).toBe(false);
    expect(isExplicitProvider(providerUrn("default_0_1_0"))).toBe(false);
    expect(isExplicitProvider(undefined)).toBe(false);
    expect(isExplicitProvider(providerUrn("accountB"))).toBe(true);
    expect(checkConfig({ baseUrl: "https://api.example" }, providerUrn("accountB"))).toEqual([{ property: "apiKey", reason: expect.stringMatching(/its own key.*CERTRESELLER_API_KEY/) }]);
    expect(checkConfig({ baseUrl: "https://api.example" }, providerUrn("default"))).toEqual([]);
    expect(accountLine(providerUrn("accountB"), "ak_b:secret", "its apiKey")).toBe("provider accountB buys with account ak_b (its apiKey)");
    expect(accountLine(providerUrn("default"), "secretonly", "CERTRESELLER_API_KEY from the environment")).not.toContain("secretonly");
  });

  it("the plugin's journal scope: the organization setting on Pulumi Cloud (required), `organization` on a self-managed backend", () => {
    expect(pluginJournalScope("acme", "https://api.pulumi.com")).toEqual({ scope: "org=acme" });
    expect(() => pluginJournalScope(undefined, "https://api.pulumi.com")).toThrow(OrganizationRequiredError);
    expect(() => pluginJournalScope(undefined, "https://app.pulumi.com")).toThrow(/certreseller:organization/);
    for (const backend of ["file:///state", "s3://bucket/state", "gs://b", "azblob://c", "postgres://db/x"]) {
      expect(pluginJournalScope(undefined, backend)).toEqual({ scope: "org=organization" });
    }
    const other = pluginJournalScope("acme", "file:///state");
    expect(other.scope).toBe("org=organization");
    expect(other.warning).toMatch(/"acme".*self-managed/);
    expect(checkConfig({ organization: "a;b" })).toEqual([{ property: "organization", reason: expect.stringMatching(/organisation name/) }]);
  });

  it("DiffConfig lists what changed and never asks for a replacement (that would buy every order again)", () => {
    expect(diffConfig({ apiKey: "a", baseUrl: "u" }, { apiKey: "b", baseUrl: "u" })).toEqual(["apiKey"]);
    expect(diffConfig({ apiKey: "a" }, { apiKey: "a", version: "0.1.0" })).toEqual([]);
  });

  it("the API key is the secret setting", () => {
    expect(SECRET_SETTINGS).toEqual(["apiKey"]);
  });
});
