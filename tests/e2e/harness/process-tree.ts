import * as fs from "node:fs";
import { isAlive } from "../../../scripts/engine/system.js";

export { isAlive };

/** Every live descendant of `pid` (children first found through /proc's parent links). */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // Field 4 is the parent pid; the command name (field 2) may hold spaces, so read after its closing paren.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/**
 * SIGKILLs `pid` and its whole tree at once, as a lost machine or a killed CI
 * job would: the engine's plugins run in process groups of their own, so the
 * tree is read from /proc rather than signalled by group.
 */
export function killTree(pid: number): number[] {
  const all = [pid, ...descendants(pid)];
  for (const p of all) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return all;
}
