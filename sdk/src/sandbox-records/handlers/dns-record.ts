/**
 * Handler module of `testing.SandboxDnsRecord`, named `testing/dns-record` in
 * state (provider/entry.ts `HANDLER_MODULES`).
 */
import { createHash } from "node:crypto";
import type { ResourceHandlers } from "../../provider/index.js";
import { changedInputs, checkInputs } from "../../resources/shared/inputs.js";
import { SANDBOX_DNS_RECORD_PROPERTIES } from "../declarations.js";
import type { SandboxDnsRecordInputValues as DnsRecordInputs } from "../properties.generated.js";
import { managementCall, managementUrlFailures } from "../management.js";

export type { SandboxDnsRecordInputValues as DnsRecordInputs } from "../properties.generated.js";

function recordOf(inputs: DnsRecordInputs) {
  return { fqdn: inputs.fqdn.toLowerCase().replace(/\.$/, ""), type: inputs.type.toUpperCase(), value: inputs.value };
}

export const resourceType = "SandboxDnsRecord";

export const handlers: ResourceHandlers<DnsRecordInputs, DnsRecordInputs> = {
  async check(_ctx, _olds, news) {
    const { failures, rejected, unknown } = checkInputs(SANDBOX_DNS_RECORD_PROPERTIES, { ...news });
    // Beyond its form: whether the sandbox answers there.
    if (!rejected.has("managementUrl") && !unknown.has("managementUrl")) failures.push(...(await managementUrlFailures(news.managementUrl)));
    return { inputs: news, failures };
  },
  async diff(_ctx, _id, olds, news) {
    // Every field is part of the published record's identity (declared `change: "replace"`).
    const { replaces } = changedInputs(SANDBOX_DNS_RECORD_PROPERTIES, { ...olds }, { ...news });
    return { changes: replaces.length > 0, replaces, deleteBeforeReplace: false };
  },
  async create(_ctx, inputs) {
    const record = recordOf(inputs);
    await managementCall(inputs.managementUrl, "POST", "dns-records", record);
    const id = `${record.type} ${record.fqdn} ${createHash("sha256").update(record.value).digest("hex").slice(0, 16)}`;
    return { id, outs: { managementUrl: inputs.managementUrl, fqdn: inputs.fqdn, type: inputs.type, value: inputs.value } };
  },
  async delete(ctx, _id, props) {
    try {
      await managementCall(props.managementUrl, "DELETE", "dns-records", recordOf(props));
    } catch (error) {
      // A stopped sandbox has nothing left to unpublish; do not block destroy on it.
      ctx.log(recordOf(props).fqdn).warn(`could not unpublish the record (${(error as Error).message}); releasing it`);
    }
  },
};
