import { describe, expect, it } from "vitest";
import { parseDnsServer, parseDnsServers } from "../../src/rules/dns-servers.js";

describe("a DNS server address", () => {
  it("is an IPv4 or IPv6 address with an optional port (53 by default)", () => {
    expect(parseDnsServer("127.0.0.1:5353")).toEqual({ server: "127.0.0.1:5353" });
    expect(parseDnsServer(" 192.0.2.53 ")).toEqual({ server: "192.0.2.53:53" });
    expect(parseDnsServer("[2001:DB8::53]:5300")).toEqual({ server: "[2001:db8::53]:5300" });
    expect(parseDnsServer("::1")).toEqual({ server: "[::1]:53" });
    expect(parseDnsServer("[::1]")).toEqual({ server: "[::1]:53" });
  });

  it("refuses a host name and a bad port, saying what is expected", () => {
    expect(parseDnsServer("ns1.example.com").reason).toMatch(/"ns1\.example\.com" is not an IP address with an optional port \(e\.g\. 192\.0\.2\.53/);
    expect(parseDnsServer("127.0.0.1:0").reason).toMatch(/has port 0; a port is 1 to 65535/);
    expect(parseDnsServer("127.0.0.1:70000").reason).toMatch(/port 70000/);
    expect(parseDnsServer("1.2.3.4:x").reason).toMatch(/not an IP address/);
  });
});

describe("a list of DNS servers", () => {
  it("is an array, or one comma- or space-separated string; duplicates are dropped", () => {
    expect(parseDnsServers("127.0.0.1:5353, 10.0.0.53 127.0.0.1:5353")).toEqual({ servers: ["127.0.0.1:5353", "10.0.0.53:53"] });
    expect(parseDnsServers(["[::1]:5353"])).toEqual({ servers: ["[::1]:5353"] });
  });

  it("must name at least one server, each an address", () => {
    expect(parseDnsServers("").reason).toMatch(/at least one DNS server/);
    expect(parseDnsServers([]).reason).toMatch(/at least one DNS server/);
    expect(parseDnsServers([53]).reason).toMatch(/must be a list of DNS server addresses/);
    expect(parseDnsServers(["10.0.0.1", "dns.example"]).reason).toMatch(/"dns\.example" is not an IP address/);
  });
});
