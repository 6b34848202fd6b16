import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * One sandbox per data dir: two processes appending to one journal would
 * interleave their books. The lock holds the owner's pid; a lock whose pid is
 * gone (a crash) is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, "sandbox.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: "wx", mode: 0o600 });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(path, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number(readFileSync(path, "utf8").trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new Error(`data dir ${dataDir} is in use by another sandbox (pid ${owner}); stop it or use another --data-dir`);
      }
      if (owner === process.pid) {
        throw new Error(`data dir ${dataDir} is already open in this process; stop that sandbox first`);
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not lock data dir ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
