/**
 * Handler module of `testing.SandboxFileRecord`, named `testing/file-record` in
 * state (provider/entry.ts `HANDLER_MODULES`).
 */
import type * as pulumi from "@pulumi/pulumi";
import { isUnknown, type ResourceHandlers } from "../../provider/index.js";
import { managementCall, managementUrlFailures } from "../management.js";

export interface FileRecordInputs {
  managementUrl: string;
  url: string;
  content: string;
}

export const resourceType = "SandboxFileRecord";

/**
 * The URL as the sandbox stores it: absolute. A record's `link` (spec 2.5,
 * `//<domain>/.well-known/pki-validation/<file>`) is taken as its `http:` URL,
 * the scheme the CA fetches with.
 */
function fullUrl(value: unknown): string | undefined {
  const url = typeof value === "string" ? value.trim() : "";
  if (/^https?:\/\/[^/]+\/.+/i.test(url)) return url;
  if (/^\/\/[^/]+\/.+/.test(url)) return `http:${url}`;
  return undefined;
}

export const handlers: ResourceHandlers<FileRecordInputs, FileRecordInputs> = {
  async check(_ctx, _olds, news) {
    const failures: pulumi.dynamic.CheckFailure[] = await managementUrlFailures(news.managementUrl);
    const inputs = { ...news };
    if (!isUnknown(news.url)) {
      const url = fullUrl(news.url);
      if (url === undefined) {
        failures.push({ property: "url", reason: `url must be the record's full http(s) URL (fileRecordFor(d).url) or its protocol-relative link, not ${JSON.stringify(news.url)}` });
      } else {
        inputs.url = url;
      }
    }
    if (!isUnknown(news.content) && typeof news.content !== "string") failures.push({ property: "content", reason: "content must be a string" });
    return { inputs, failures };
  },
  async diff(_ctx, _id, olds, news) {
    // The sandbox keys files by URL: new content is an update in place (a
    // create-before-delete replacement would delete the new file with the old).
    const replaces = (["managementUrl", "url"] as const).filter((k) => isUnknown(news[k]) || olds[k] !== news[k]);
    const changes = replaces.length > 0 || isUnknown(news.content) || olds.content !== news.content;
    return { changes, replaces, deleteBeforeReplace: false };
  },
  async create(_ctx, inputs) {
    await managementCall(inputs.managementUrl, "POST", "files", { url: inputs.url, content: inputs.content });
    return { id: inputs.url, outs: { managementUrl: inputs.managementUrl, url: inputs.url, content: inputs.content } };
  },
  async update(_ctx, _id, _olds, news) {
    await managementCall(news.managementUrl, "POST", "files", { url: news.url, content: news.content });
    return { outs: { managementUrl: news.managementUrl, url: news.url, content: news.content } };
  },
  async delete(ctx, _id, props) {
    try {
      await managementCall(props.managementUrl, "DELETE", "files", { url: props.url });
    } catch (error) {
      ctx.log(props.url).warn(`could not unpublish the file (${(error as Error).message}); releasing it`);
    }
  },
};
