import * as pulumi from "@pulumi/pulumi";

/**
 * Checks the `InvokeOptions` a function was given. These functions call the
 * Partner API from the program with the stack's `certreseller:*` config (or
 * the environment); there is no provider resource to route them through, so
 * `parent`, `version`, `pluginDownloadURL` and `async` are accepted and have
 * no effect, and an explicit `provider`/`providers` is refused rather than
 * silently ignored: it cannot select another account or endpoint.
 */
export function checkInvokeOptions(fn: string, opts: pulumi.InvokeOptions | pulumi.InvokeOutputOptions | undefined): void {
  if (opts?.provider !== undefined || (opts as { providers?: unknown } | undefined)?.providers !== undefined) {
    throw new Error(
      `${fn}: the provider option has no meaning here — pulumi-certreseller has no provider resource; the function calls the Partner API ` +
        "with the stack config certreseller:apiKey / certreseller:baseUrl (or CERTRESELLER_API_KEY / CERTRESELLER_BASE_URL). Remove it.",
    );
  }
}

/**
 * Resolves once every resource in `dependsOn` has been created (its id, or a
 * component's URN, is known): in a preview, where a new resource's id is
 * unknown, the function's result is unknown too, as with other providers'
 * Output functions.
 */
export function afterDependencies(opts: pulumi.InvokeOutputOptions | undefined): pulumi.Output<unknown> {
  const deps = opts?.dependsOn;
  if (deps === undefined) return pulumi.output(true);
  return pulumi.output(deps as pulumi.Input<pulumi.Input<pulumi.Resource>[] | pulumi.Resource>).apply((resolved) => {
    const list = (Array.isArray(resolved) ? resolved : [resolved]) as pulumi.Resource[];
    return pulumi.all(list.map((r) => (pulumi.CustomResource.isInstance(r) ? (r as pulumi.CustomResource).id : r.urn)));
  });
}
