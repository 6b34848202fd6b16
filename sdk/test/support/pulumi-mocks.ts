import * as pulumi from "@pulumi/pulumi";

export interface Registration {
  type: string;
  name: string;
  inputs: Record<string, any>;
  /** The inputs as serialized for the engine: secrets still wrapped (the signature key marks them). */
  rawInputs: Record<string, any>;
  additionalSecretOutputs: string[];
}

/**
 * setMocks plus a tap on the mock monitor: the mock applies neither
 * additionalSecretOutputs nor anything else of the engine, so tests assert
 * what the class asked for. `outputs` decides what each resource reports;
 * in preview (dryRun) missing outputs are unknown, as with the engine.
 */
export async function installMocks(opts: {
  preview: boolean;
  outputs: (type: string, name: string, inputs: Record<string, any>) => Record<string, any>;
}): Promise<Registration[]> {
  const registrations: Registration[] = [];
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${args.name}-id`, state: opts.outputs(args.type, args.name, args.inputs) }),
      call: (args) => args.inputs,
    },
    "proj",
    "dev",
    opts.preview,
  );
  const monitor = pulumi.runtime.getMonitor() as any;
  const register = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req: any, callback: (err: unknown, res: any) => void) =>
    register(req, (err: unknown, res: any) => {
      if (!err && res) {
        registrations.push({
          type: req.getType(),
          name: req.getName(),
          inputs: pulumi.runtime.deserializeProperties(req.getObject()),
          rawInputs: req.getObject().toJavaScript(),
          additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
        });
      }
      callback(err, res);
    });
  return registrations;
}

/** Resolves with the value and whether it is known (unknown in a preview). */
export function settle<T>(o: pulumi.Output<T>): Promise<{ value: T | undefined; known: boolean }> {
  return (o as any).isKnown.then(async (known: boolean) => ({ known, value: known ? await new Promise<T>((r) => o.apply(r)) : undefined }));
}
