import * as pulumi from "@pulumi/pulumi";

// The baseline of the benchmark: a dynamic resource whose provider does no
// work, so an `up` of these costs only the engine and the dynamic-provider host.
const noopProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return { id: `noop-${Math.random().toString(36).slice(2, 10)}`, outs: inputs };
  },
};

/** A dynamic resource that stores its inputs and does nothing else. */
export class NoopResource extends pulumi.dynamic.Resource {
  static __pulumiType = "pulumi-nodejs:dynamic/certreseller-bench:Noop";
  constructor(name: string, props: Record<string, pulumi.Input<unknown>>, opts?: pulumi.CustomResourceOptions) {
    super(noopProvider, name, props, opts, "certreseller-bench", "Noop");
  }
}
