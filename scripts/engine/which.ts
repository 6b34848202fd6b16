import * as fs from "node:fs";
import * as path from "node:path";

/** The first executable named `name` on `pathVariable`, like `command -v`. */
export function findOnPath(name: string, pathVariable = process.env.PATH ?? ""): string | undefined {
  for (const dir of pathVariable.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}
