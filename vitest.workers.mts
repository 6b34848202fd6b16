import * as os from "node:os";

/**
 * Test files run at once, in every project: one pool of this many workers
 * serves them all, so the unit files fill the time the engine files spend
 * waiting on their processes. Two at least (the engine files wait more than
 * they compute); no more than the machine's cores, as the engine's processes
 * are heavy. `VITEST_MAX_WORKERS` overrides it for a run.
 */
export const TEST_WORKERS = Math.max(2, os.availableParallelism());
