/**
 * Whether the user asked @pulumi/pulumi for its leaked-promise report, the
 * only reader of the stacks this module skips.
 */
const wantsPromiseStacks = (): boolean => !!process.env.PULUMI_DEBUG_PROMISE_LEAKS;

/**
 * Suspends stack capture for a resource's registration, where @pulumi/pulumi
 * formats a stack trace per registered property. Declare it with `using`
 * just before the `super(...)` call: the limit comes back when the
 * constructor returns or throws.
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
 * So the registration runs with `Error.stackTraceLimit = 0`, the way
 * @pulumi/pulumi itself sets the limit around its own source-position
 * capture (which sets its own limit, so the positions recorded in state are
 * unchanged). With `PULUMI_DEBUG_PROMISE_LEAKS` set, the traces are kept.
 *
 * The cost: an error @pulumi/pulumi throws inside `super(...)` (an empty
 * name, a parent that is not a resource) carries its message without stack
 * frames. A catch that re-captured them would be the same six lines in every
 * class; those errors name the rule broken, and the program's other errors
 * (our own checks run before registration) keep their frames.
 *
 * It is declared in each resource's constructor rather than in a shared base
 * class, because a base class would add a frame to the stack trace the engine
 * records for every resource (and name the base class as its source).
 *
 * @example
 * using _registration = quietRegistration();
 * super(Order.__pulumiType, name, { ...props, __provider: providerText("order") }, opts);
 */
export function quietRegistration(): Disposable {
  const limit = Error.stackTraceLimit;
  if (!wantsPromiseStacks()) Error.stackTraceLimit = 0;
  return {
    [Symbol.dispose]() {
      Error.stackTraceLimit = limit;
    },
  };
}
