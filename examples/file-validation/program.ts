/**
 * File validation (method `file`): the CA fetches
 * `http://<domain>/.well-known/pki-validation/<file>` (the record's `url`), so
 * the program writes that file into the site's web root before the
 * certificate is awaited.
 *
 * Against the sandbox, which cannot fetch from your disk, each file is also
 * published to the sandbox's management API by `testing.SandboxFileRecord`
 * (the sandbox plays the internet); leave the management URL unset for a
 * real service.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as certs from "pulumi-certreseller";
import { WebRootFile } from "./web-root-file";

/** What this example buys and where it writes; defaults from stack config. */
export interface FileValidationSettings {
  /** Names to certify, main first. Config `file-validation:domains` (JSON list), default `["files.example.com"]`. */
  domains: string[];
  /** Product code. Config `file-validation:productCode`, default `sandbox-dv-single` (`sandbox-dv-multi` for several names). */
  productCode: string;
  /** The web server's document root. Config `file-validation:webRoot`, default `./webroot` (absolute path recorded). */
  webRoot: string;
  /**
   * Sandbox management URL to publish the files to as well. Config
   * `sandbox:managementUrl`, else `certreseller:baseUrl` + `/management`;
   * empty string: do not publish (a real service fetches from your server).
   */
  managementUrl: string;
}

/**
 * Reads {@link FileValidationSettings} from stack config, with defaults;
 * explicit overrides win.
 *
 * @example
 * ```ts
 * fileValidationSettings({ domains: ["a.example.com", "b.example.com"] }).productCode; // "sandbox-dv-multi"
 * ```
 */
export function fileValidationSettings(overrides: Partial<FileValidationSettings> = {}): FileValidationSettings {
  const config = new pulumi.Config("file-validation");
  const domains = overrides.domains ?? config.getObject<string[]>("domains") ?? ["files.example.com"];
  const baseUrl = new pulumi.Config("certreseller").get("baseUrl") ?? process.env.CERTRESELLER_BASE_URL;
  return {
    domains,
    productCode: overrides.productCode ?? config.get("productCode") ?? (domains.length > 1 ? "sandbox-dv-multi" : "sandbox-dv-single"),
    webRoot: path.resolve(overrides.webRoot ?? config.get("webRoot") ?? "webroot"),
    managementUrl:
      overrides.managementUrl ??
      new pulumi.Config("sandbox").get("managementUrl") ??
      (baseUrl ? `${baseUrl.replace(/\/+$/, "")}/management` : ""),
  };
}

/**
 * Declares the order, a web-root file per domain (plus its sandbox copy) and
 * the certificate, which waits for all of them.
 *
 * @example
 * ```ts
 * const out = fileValidation({ domains: ["example.com"], webRoot: "/var/www/html", managementUrl: "" });
 * export const fullChainPem = out.fullChainPem;
 * ```
 */
export function fileValidation(overrides: Partial<FileValidationSettings> = {}) {
  const settings = fileValidationSettings(overrides);
  const [main, ...sans] = settings.domains;
  const order = new certs.Order("site", {
    productCode: settings.productCode,
    domain: main!,
    sanDomains: sans,
    verificationMethod: "file",
  });
  const validation = new certs.Validation("site", { order });
  const published: pulumi.Resource[] = [];
  for (const domain of settings.domains) {
    const f = validation.fileRecordFor(domain);
    published.push(new WebRootFile(`dcv-${domain}`, { webRoot: settings.webRoot, path: f.path, content: f.content }));
    if (settings.managementUrl) {
      published.push(
        new certs.testing.SandboxFileRecord(`dcv-${domain}`, { managementUrl: settings.managementUrl, url: f.url, content: f.content }),
      );
    }
  }
  const certificate = new certs.Certificate("site", { orderNo: order.orderNo }, { dependsOn: published });
  return {
    orderNo: order.orderNo,
    validationUrls: pulumi.all(settings.domains.map((d) => validation.fileRecordFor(d).url)),
    webRoot: settings.webRoot,
    fullChainPem: certificate.fullChainPem,
    /** Secret. */
    privateKeyPem: certificate.privateKeyPem,
    notAfter: certificate.notAfter,
  };
}
