import * as pulumi from "@pulumi/pulumi";

// A DNS record published to the sandbox that, like Cloudflare's DnsRecord
// (whose zone alone forces a replacement), changes name, type and value IN
// PLACE: the sandbox's management URL stands for the zone. The
// lifetime-renewal scenario asserts that a reissue updates the records in
// place, which testing.SandboxDnsRecord (every field a replacement) cannot show.
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    const call = async (method: string, body: unknown) => {
      const response = await fetch(`${inputs.managementUrl}/dns-records`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`sandbox ${method} /dns-records: HTTP ${response.status} ${await response.text()}`);
    };
    await call("POST", { fqdn: inputs.fqdn, type: inputs.type, value: inputs.value });
    return { id: `${inputs.type} ${inputs.fqdn}`, outs: inputs };
  },
  async diff(_id, olds, news) {
    const replaces = ["managementUrl"].filter((k) => olds[k] !== news[k]);
    return { changes: replaces.length > 0 || ["fqdn", "type", "value"].some((k) => olds[k] !== news[k]), replaces, deleteBeforeReplace: false };
  },
  async update(_id, olds, news) {
    const call = async (method: string, body: unknown) => {
      const response = await fetch(`${news.managementUrl}/dns-records`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      if (!response.ok && method !== "DELETE") throw new Error(`sandbox ${method} /dns-records: HTTP ${response.status} ${await response.text()}`);
    };
    await call("DELETE", { fqdn: olds.fqdn, type: olds.type, value: olds.value });
    await call("POST", { fqdn: news.fqdn, type: news.type, value: news.value });
    return { outs: news };
  },
  async delete(_id, props) {
    await fetch(`${props.managementUrl}/dns-records`, {
      method: "DELETE",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fqdn: props.fqdn, type: props.type, value: props.value }),
    }).catch(() => undefined);
  },
};

export class InPlaceDnsRecord extends pulumi.dynamic.Resource {
  static __pulumiType = "pulumi-nodejs:dynamic/certreseller-e2e:InPlaceDnsRecord";
  constructor(
    name: string,
    props: { managementUrl: pulumi.Input<string>; fqdn: pulumi.Input<string>; type: pulumi.Input<string>; value: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(provider, name, props, opts, "certreseller-e2e", "InPlaceDnsRecord");
  }
}
