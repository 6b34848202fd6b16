/**
 * Resource options that the Node dynamic-provider host does not carry to the
 * provider, handled in the resource classes' constructors instead
 * (docs/pulumi-dynamic-providers.md): `import` cannot work, and
 * `customTimeouts` never reaches `create`.
 */
import type * as pulumi from "@pulumi/pulumi";

/**
 * Fails a resource declared with the `import` option, at construction,
 * explaining why it cannot work and what does. The engine's Read for an
 * import carries no stored provider, so the dynamic-provider host fails with
 * an unrelated error ("Cannot read properties of undefined (reading
 * 'toJavaScript')"); this says what to do instead. `pulumi import` on the
 * command line meets the same limitation before any program runs.
 *
 * @param kind the resource class (`Order`, `Validation`, `Certificate`).
 * @param instead what to declare instead, for this kind.
 *
 * @example
 * ```ts
 * refuseImportOption("Order", name, opts, `declare the Order with adoptOrderNo: ${JSON.stringify(opts?.import)}`);
 * ```
 */
export function refuseImportOption(kind: string, name: string, opts: pulumi.CustomResourceOptions | undefined, instead: string): void {
  if (opts?.import === undefined || opts.import === null) return;
  throw new Error(
    `${kind} "${name}": the \`import\` resource option cannot work with pulumi-certreseller resources. They are Pulumi dynamic ` +
      "resources, and the engine cannot load a dynamic provider while importing (upstream pulumi/pulumi#3550, #16175); " +
      `\`pulumi import\` fails the same way. Remove \`import\` and ${instead}`,
  );
}

/** What `Validation`/`Certificate` say instead: they hold no purchase of their own. */
export function followerImportAdvice(kind: string): string {
  return (
    `declare the ${kind}: it holds no purchase, it reads the order it is given, so there is nothing to import. ` +
    'To take over an order bought elsewhere, declare `new certs.Order(name, { ...its product and domains, adoptOrderNo: "CERT..." })`: ' +
    "up verifies the order and records it without buying."
  );
}

const UNIT_MS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, "µs": 1e-3, "μs": 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A Pulumi `customTimeouts` duration (Go's `time.ParseDuration` syntax, which
 * the engine uses: `"30m"`, `"1h30m"`, `"90s"`, `"1.5h"`) in minutes.
 * Throws on anything else, naming the value.
 *
 * @example
 * ```ts
 * durationMinutes("1h30m", "customTimeouts.create"); // 90
 * ```
 */
export function durationMinutes(value: string, what: string): number {
  const text = value.trim();
  const part = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let ms = 0;
  let at = 0;
  if (text === "" || text === "0") ms = 0;
  else {
    while (at < text.length) {
      part.lastIndex = at;
      const m = part.exec(text);
      if (!m) throw new Error(`${what}: ${JSON.stringify(value)} is not a duration; use Pulumi's form, e.g. "30m", "1h30m", "90s"`);
      ms += Number(m[1]) * UNIT_MS[m[2]!]!;
      at = part.lastIndex;
    }
  }
  return ms / 60_000;
}
