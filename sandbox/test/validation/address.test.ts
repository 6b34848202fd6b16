import { describe, expect, it } from "vitest";
import { parseHostPort } from "../../src/validation/address.js";

describe("parseHostPort (resolver and hostOverrides values)", () => {
  it.each([
    ["127.0.0.1", { host: "127.0.0.1" }],
    ["127.0.0.1:5353", { host: "127.0.0.1", port: 5353 }],
    [" localhost:8080 ", { host: "localhost", port: 8080 }],
    ["::1", { host: "::1" }],
    ["[::1]", { host: "::1" }],
    ["[2001:db8::5]:8443", { host: "2001:db8::5", port: 8443 }],
  ])("reads %j", (text, expected) => {
    expect(parseHostPort(text)).toEqual(expected);
  });

  it.each([
    ["", /is not host, host:port or \[IPv6\]:port/],
    ["a:1:2", /is not host, host:port or \[IPv6\]:port/],
    ["127.0.0.1:0", /port "0" must be 1-65535/],
    ["127.0.0.1:65536", /port "65536" must be 1-65535/],
    ["[::1]:x", /is not host, host:port/],
  ])("refuses %j", (text, rule) => {
    const parsed = parseHostPort(text);
    expect("error" in parsed && parsed.error).toMatch(rule);
  });
});
