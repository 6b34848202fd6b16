import { describe, expect, it } from "vitest";
import { checkConfig } from "../../src/plugin/configuration.js";
import { InvalidSettingError, readSettings, SETTING_SOURCES } from "../../src/provider/index.js";

const config = (values: Record<string, string>) => ({ get: (key: string) => values[key] });

describe("the dnsResolvers setting", () => {
  it("comes from certreseller:dnsResolvers, else CERTRESELLER_DNS_RESOLVERS, as canonical address:port", () => {
    expect(SETTING_SOURCES.dnsResolvers).toEqual({ config: "certreseller:dnsResolvers", env: "CERTRESELLER_DNS_RESOLVERS" });
    expect(readSettings(config({ "certreseller:dnsResolvers": "127.0.0.1:5353, ::1" }), { CERTRESELLER_DNS_RESOLVERS: "10.0.0.1" }).dnsResolvers).toEqual([
      "127.0.0.1:5353",
      "[::1]:53",
    ]);
    expect(readSettings(config({}), { CERTRESELLER_DNS_RESOLVERS: "10.0.0.1" }).dnsResolvers).toEqual(["10.0.0.1:53"]);
    expect(readSettings(config({}), {})).not.toHaveProperty("dnsResolvers");
  });

  it("refuses a value that is not a list of addresses, naming the setting, its variable and the rule", () => {
    const read = () => readSettings(config({ "certreseller:dnsResolvers": "resolver.example.com" }), {});
    expect(read).toThrow(InvalidSettingError);
    expect(read).toThrow(
      'certreseller: certreseller:dnsResolvers / CERTRESELLER_DNS_RESOLVERS "resolver.example.com" is not an IP address with an optional port (e.g. 192.0.2.53, 192.0.2.53:5353 or [2001:db8::53]:53)',
    );
  });

  it("the plugin's CheckConfig reports it on dnsResolvers", () => {
    expect(checkConfig({ apiKey: "ak_1:s", baseUrl: "https://api.example", dnsResolvers: "resolver.example.com" })).toEqual([
      { property: "dnsResolvers", reason: expect.stringContaining("is not an IP address") },
    ]);
    expect(checkConfig({ apiKey: "ak_1:s", baseUrl: "https://api.example", dnsResolvers: "192.0.2.53:53" })).toEqual([]);
  });
});
