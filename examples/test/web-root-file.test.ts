/** The file-validation example's web-root writer, run for real on a temporary web root. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { webRootFileProvider } from "../file-validation/web-root-file";

const webRoot = mkdtempSync(join(tmpdir(), "webroot-"));
afterAll(() => rmSync(webRoot, { recursive: true, force: true }));
const path = "/.well-known/pki-validation/3F2A.txt";

describe("WebRootFile provider", () => {
  it("writes, rewrites, reads back and removes the validation file", async () => {
    const { id, outs } = await webRootFileProvider.create({ webRoot, path, content: "token\nsandbox\nCERT1" });
    expect(id).toBe(join(webRoot, path));
    expect(readFileSync(id, "utf8")).toBe("token\nsandbox\nCERT1");
    await webRootFileProvider.update(id, outs, { ...outs, content: "token2" });
    expect(readFileSync(id, "utf8")).toBe("token2");
    expect((await webRootFileProvider.read(id, outs)).props.content).toBe("token2");
    await webRootFileProvider.delete(id);
    expect(existsSync(id)).toBe(false);
    expect((await webRootFileProvider.read(id, outs)).props.content).toBe("");
  });

  it("replaces on a new path or web root and updates on new content", async () => {
    const olds = { webRoot, path, content: "a" };
    expect(await webRootFileProvider.diff("x", olds, { ...olds, content: "b" })).toMatchObject({ changes: true, replaces: [] });
    expect(await webRootFileProvider.diff("x", olds, { ...olds, path: "/.well-known/pki-validation/other.txt" })).toMatchObject({ replaces: ["path"] });
  });

  it("refuses a path outside the validation folder, naming the field", async () => {
    const { failures } = await webRootFileProvider.check({} as never, { webRoot, path: "/../../etc/passwd", content: "x" });
    expect(failures).toEqual([{ property: "path", reason: 'path must lie under /.well-known/pki-validation/ and must not contain ".."' }]);
  });
});
