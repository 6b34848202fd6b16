/**
 * A file in a web server's document root, managed as a Pulumi resource: what
 * publishing an HTTP validation file means on a real server (nginx, Apache,
 * a static-site bucket mounted on disk).
 *
 * A local dynamic resource: Pulumi serializes the provider below into state,
 * so its methods capture nothing and load Node's modules with `require` when
 * they run.
 */
import * as pulumi from "@pulumi/pulumi";

/** Inputs of {@link WebRootFile}. */
export interface WebRootFileArgs {
  /** The document root on disk, e.g. `/var/www/html`. */
  webRoot: pulumi.Input<string>;
  /** The URL path to serve, under `/.well-known/pki-validation/`. */
  path: pulumi.Input<string>;
  /** The exact file content the CA expects. */
  content: pulumi.Input<string>;
}

interface WebRootFileState {
  webRoot: string;
  path: string;
  content: string;
}

const PREFIX = "/.well-known/pki-validation/";

/** The provider, exported for tests that call it directly. */
export const webRootFileProvider = {
  async check(_olds: WebRootFileState, news: WebRootFileState) {
    const failures: pulumi.dynamic.CheckFailure[] = [];
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    if (typeof news.webRoot !== "string" || !news.webRoot.startsWith("/")) {
      failures.push({ property: "webRoot", reason: "webRoot must be an absolute directory path" });
    }
    if (news.path !== unknown && (typeof news.path !== "string" || !news.path.startsWith(PREFIX) || news.path.includes(".."))) {
      failures.push({ property: "path", reason: `path must lie under ${PREFIX} and must not contain ".."` });
    }
    return { inputs: news, failures };
  },
  async diff(_id: string, olds: WebRootFileState, news: WebRootFileState) {
    const replaces = (["webRoot", "path"] as const).filter((k) => olds[k] !== news[k]);
    const changes = replaces.length > 0 || olds.content !== news.content;
    return { changes, replaces, deleteBeforeReplace: false };
  },
  async create(inputs: WebRootFileState) {
    const fs = require("node:fs") as typeof import("node:fs");
    const nodePath = require("node:path") as typeof import("node:path");
    const file = nodePath.join(inputs.webRoot, inputs.path);
    fs.mkdirSync(nodePath.dirname(file), { recursive: true });
    // Write then rename: a web server never serves a half-written token.
    fs.writeFileSync(`${file}.tmp`, inputs.content);
    fs.renameSync(`${file}.tmp`, file);
    return { id: file, outs: { webRoot: inputs.webRoot, path: inputs.path, content: inputs.content } };
  },
  async update(id: string, _olds: WebRootFileState, news: WebRootFileState) {
    const fs = require("node:fs") as typeof import("node:fs");
    fs.writeFileSync(`${id}.tmp`, news.content);
    fs.renameSync(`${id}.tmp`, id);
    return { outs: { webRoot: news.webRoot, path: news.path, content: news.content } };
  },
  async read(id: string, props: WebRootFileState) {
    const fs = require("node:fs") as typeof import("node:fs");
    // A file removed by hand reads as empty content, so the next `up` rewrites it.
    const content = fs.existsSync(id) ? fs.readFileSync(id, "utf8") : "";
    return { id, props: { ...props, content } };
  },
  async delete(id: string) {
    const fs = require("node:fs") as typeof import("node:fs");
    fs.rmSync(id, { force: true });
  },
};

/**
 * Writes `content` to `<webRoot><path>`; deleting the resource removes the file.
 *
 * @example
 * ```ts
 * const f = validation.fileRecordFor("example.com");
 * new WebRootFile("dcv", { webRoot: "/var/www/html", path: f.path, content: f.content });
 * ```
 */
export class WebRootFile extends pulumi.dynamic.Resource {
  static readonly __pulumiType = "pulumi-nodejs:dynamic/file-validation:WebRootFile";

  declare readonly webRoot: pulumi.Output<string>;
  declare readonly path: pulumi.Output<string>;
  declare readonly content: pulumi.Output<string>;

  constructor(name: string, args: WebRootFileArgs, opts?: pulumi.CustomResourceOptions) {
    super(webRootFileProvider, name, { ...args }, opts, "file-validation", "WebRootFile");
  }
}
