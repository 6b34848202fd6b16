/**
 * Whether the user asked @pulumi/pulumi for its leaked-promise report, the
 * only reader of the stacks this module skips.
 */
const wantsPromiseStacks = (): boolean => !!process.env.PULUMI_DEBUG_PROMISE_LEAKS;

/** What {@link quietRegistration} returns: end it in `finally`, pass a thrown error through `failed`. */
export interface QuietRegistration {
  /** Restores `Error.stackTraceLimit`. */
  end(): void;
  /** Restores the limit and gives an error thrown during registration a stack from the program's call site. */
  failed(error: unknown, constructor: abstract new (...args: never[]) => unknown): unknown;
}

/**
 * Suspends stack capture for a resource's registration (its `super(...)`
 * call), where @pulumi/pulumi formats a stack trace per registered property.
 *
 * Why: while a resource is constructed, @pulumi/pulumi makes four promises
 * for every registered property (value, known, secret, dependencies) and
 * stores `new Error().stack` on each, for the report it prints when a promise
 * leaks. Reading `.stack` formats the trace, and under Pulumi's TypeScript
 * runner (source-map-support) every frame is mapped through source maps. An
 * Order registers about twenty properties, a Certificate twelve: at 400
 * certificates the traces were the largest part of a preview's program CPU
 * (`npm run bench:engine`), for a report that is empty when nothing leaks.
 *
 * So the synchronous registration runs with `Error.stackTraceLimit = 0`, the
 * way @pulumi/pulumi itself sets the limit around its own source-position
 * capture (which sets its own limit, so the positions recorded in state are
 * unchanged). The limit is restored before the constructor returns or throws.
 * With `PULUMI_DEBUG_PROMISE_LEAKS` set, the traces are kept.
 *
 * It is called in each resource's constructor rather than in a shared base
 * class, because a base class would add a frame to the stack trace the engine
 * records for every resource (and name the base class as its source).
 *
 * @example
 * const quiet = quietRegistration();
 * try {
 *   super(Order.__pulumiType, name, { ...props, __provider: providerText("order") }, opts);
 * } catch (error) {
 *   throw quiet.failed(error, Order);
 * } finally {
 *   quiet.end();
 * }
 */
export function quietRegistration(): QuietRegistration {
  const limit = Error.stackTraceLimit;
  if (!wantsPromiseStacks()) Error.stackTraceLimit = 0;
  const end = () => {
    Error.stackTraceLimit = limit;
  };
  return {
    end,
    failed(error, constructor) {
      end();
      // Captured with no frames: point it at the line that constructed the resource.
      if (error instanceof Error && !/\n\s+at /.test(error.stack ?? "")) Error.captureStackTrace(error, constructor);
      return error;
    },
  };
}
