import { describe, expect, it } from "vitest";
import { formatServer, parseDnsServers, parseServer } from "../../src/dns/server-address.js";

describe("a DNS server address (host:port)", () => {
  it("reads an IPv4 or IPv6 address or a name, with an optional port (53 by default)", () => {
    expect(parseServer("1.2.3.4")).toEqual({ host: "1.2.3.4", port: 53 });
    expect(parseServer("1.2.3.4:5353")).toEqual({ host: "1.2.3.4", port: 5353 });
    expect(parseServer("[::1]:53")).toEqual({ host: "::1", port: 53 });
    expect(parseServer("[2001:DB8::53]")).toEqual({ host: "2001:db8::53", port: 53 });
    expect(parseServer(" NS1.Example.com ")).toEqual({ host: "ns1.example.com", port: 53 });
    expect(parseServer("ns1.example.com:5300")).toEqual({ host: "ns1.example.com", port: 5300 });
  });

  it("reads a bare IPv6 address as the address on port 53, as the resolver list always did", () => {
    expect(parseServer("::1")).toEqual({ host: "::1", port: 53 });
    expect(parseServer("2001:db8::53")).toEqual({ host: "2001:db8::53", port: 53 });
    expect(formatServer({ host: "::1", port: 53 })).toBe("[::1]:53");
  });

  it("says what is wrong", () => {
    expect(parseServer("")).toEqual({ error: "is empty" });
    expect(parseServer("ns1:http")).toEqual({ error: 'has the port "http", not a number' });
    expect(parseServer("ns1:70000")).toEqual({ error: "has the port 70000, outside 1–65535" });
    expect(parseServer("1.2.3.4:0")).toEqual({ error: "has the port 0, outside 1–65535" });
    expect(parseServer("[ns1]:53")).toEqual({ error: 'has "ns1" in brackets, not an IPv6 address' });
    expect(parseServer("2001:db8::53:x")).toEqual({ error: expect.stringMatching(/neither an IPv6 address nor host:port/) });
    expect(parseServer("bad_host:53")).toEqual({ error: 'has the host "bad_host", not a host name or IP address' });
  });
});

describe("a list of resolvers", () => {
  it("is an array, or one comma- or space-separated string, of canonical address:port; duplicates are dropped", () => {
    expect(parseDnsServers("127.0.0.1:5353, 10.0.0.53 127.0.0.1:5353")).toEqual({ servers: ["127.0.0.1:5353", "10.0.0.53:53"] });
    expect(parseDnsServers(["[::1]:5353", " 192.0.2.53 ", "[2001:DB8::53]:5300", "::1", "[::1]"])).toEqual({
      servers: ["[::1]:5353", "192.0.2.53:53", "[2001:db8::53]:5300", "[::1]:53"],
    });
  });

  it("must name at least one server, each an IP address with a port in range, saying what is expected", () => {
    expect(parseDnsServers("").reason).toMatch(/at least one DNS server/);
    expect(parseDnsServers([]).reason).toMatch(/at least one DNS server/);
    expect(parseDnsServers([53]).reason).toMatch(/must be a list of DNS server addresses/);
    expect(parseDnsServers(["10.0.0.1", "dns.example"]).reason).toBe(
      '"dns.example" is not an IP address with an optional port (e.g. 192.0.2.53, 192.0.2.53:5353 or [2001:db8::53]:53)',
    );
    expect(parseDnsServers(["127.0.0.1:0"]).reason).toMatch(/^"127\.0\.0\.1:0" has the port 0, outside 1–65535 \(e\.g\./);
    expect(parseDnsServers(["1.2.3.4:x"]).reason).toMatch(/"1\.2\.3\.4:x" has the port "x", not a number/);
  });
});
