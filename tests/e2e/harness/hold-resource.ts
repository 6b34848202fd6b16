import * as pulumi from "@pulumi/pulumi";

// Keeps the engine busy after the resource it follows, so a test can kill the
// engine at a chosen point (say, after ApplySign answered) while `up` still runs.
const holdProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    await new Promise((resolve) => setTimeout(resolve, Number(inputs.holdMs)));
    return { id: `hold-${Date.now()}`, outs: inputs };
  },
};

export class Hold extends pulumi.dynamic.Resource {
  static __pulumiType = "pulumi-nodejs:dynamic/certreseller-e2e:Hold";
  constructor(name: string, props: { after: pulumi.Input<unknown>; holdMs: number }, opts?: pulumi.CustomResourceOptions) {
    super(holdProvider, name, props, opts, "certreseller-e2e", "Hold");
  }
}
