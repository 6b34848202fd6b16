/**
 * Polls `condition` every 50 ms until it holds; fails naming `what` after `timeoutMs`.
 *
 * @example
 * await until("the order exists", async () => (await sandbox.management.orders()).length > 0);
 */
export async function until(what: string, condition: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
