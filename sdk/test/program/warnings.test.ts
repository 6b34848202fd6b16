import * as pulumi from "@pulumi/pulumi";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resetApiKeyWarningForTests, warnIfApiKeyNotSecret } from "../../src/program/warnings.js";

afterEach(() => {
  vi.restoreAllMocks();
  resetApiKeyWarningForTests();
  pulumi.runtime.setAllConfig({}, []);
});

function warnings(): string[] {
  const spy = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  warnIfApiKeyNotSecret();
  return spy.mock.calls.map((call) => String(call[0]));
}

describe("program-side API key warning", () => {
  it("warns loudly when certreseller:apiKey is plaintext stack config, without printing the key", () => {
    pulumi.runtime.setAllConfig({ "certreseller:apiKey": "ak_plain:verysecretvalue" }, []);
    const lines = warnings();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/certreseller:apiKey is set in stack config as PLAINTEXT.*pulumi config set --secret certreseller:apiKey/);
    expect(lines[0]).not.toContain("verysecretvalue");
  });
  it("is silent for a secret key and when no key is in config", () => {
    pulumi.runtime.setAllConfig({ "certreseller:apiKey": "ak_x:secret" }, ["certreseller:apiKey"]);
    expect(warnings()).toEqual([]);
    resetApiKeyWarningForTests();
    pulumi.runtime.setAllConfig({}, []);
    expect(warnings()).toEqual([]);
  });
});
