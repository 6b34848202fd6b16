import { beforeAll, describe, expect, it } from "vitest";
import { byType, installMocks, settle, tokenFor, TYPES, type Registration } from "./mocks";
import { fileValidation } from "../file-validation/program";

const domains = ["files.example.com", "www.files.example.com"];
let regs: Registration[];
let out: Record<string, unknown>;

beforeAll(async () => {
  regs = await installMocks({ config: { "sandbox:managementUrl": "http://127.0.0.1:9/management" } });
  out = await settle(fileValidation({ domains, webRoot: "/srv/www" }));
});

describe("file-validation graph", () => {
  it("orders both names on the multi-domain product with file validation", () => {
    const [order] = byType(regs, TYPES.order);
    expect(order!.inputs).toMatchObject({ productCode: "sandbox-dv-multi", domain: domains[0], sanDomains: [domains[1]], verificationMethod: "file" });
  });

  it("writes one web-root file per name with the record's path and content", () => {
    const files = byType(regs, TYPES.webRootFile);
    expect(files).toHaveLength(2);
    domains.forEach((d, i) => {
      expect(files.find((f) => f.name === `dcv-${d}`)!.inputs).toMatchObject({
        webRoot: "/srv/www",
        path: `/.well-known/pki-validation/${i}ABCDEF.txt`,
        content: tokenFor(d),
      });
    });
  });

  it("also publishes each file to the sandbox, at the record's URL", () => {
    const published = byType(regs, TYPES.sandboxFile);
    expect(published.map((p) => p.inputs.url)).toEqual(domains.map((d, i) => `http://${d}/.well-known/pki-validation/${i}ABCDEF.txt`));
    expect(published.every((p) => p.inputs.managementUrl === "http://127.0.0.1:9/management")).toBe(true);
  });

  it("waits for every file before the certificate", () => {
    const [certificate] = byType(regs, TYPES.certificate);
    for (const d of domains) expect(certificate!.dependsOn.filter((n) => n === `dcv-${d}`).length).toBeGreaterThan(0);
    expect(out.validationUrls).toHaveLength(2);
  });
});
