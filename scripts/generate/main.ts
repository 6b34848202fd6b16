// `npm run generate`: write every file derived from the declarations (the
// package schema, each resource's TypeScript types, the reference tables)
// and say which changed. `--check` writes nothing and exits 1 when one is stale.
import * as fs from "node:fs";
import * as path from "node:path";
import { generatedFiles } from "../../sdk/src/codegen/generate.js";

const root = path.resolve(__dirname, "../..");
const check = process.argv.includes("--check");
const read = (file: string): string | undefined => (fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), "utf8") : undefined);

let stale = 0;
for (const [file, content] of generatedFiles(read)) {
  const target = path.join(root, file);
  const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : undefined;
  if (current === content) continue;
  stale++;
  if (check) {
    console.error(`stale: ${file}`);
  } else {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
    console.log(`wrote ${file}`);
  }
}
if (check && stale > 0) {
  console.error(`${stale} generated file(s) are stale: run \`npm run generate\``);
  process.exitCode = 1;
} else if (stale === 0) {
  console.log("every generated file is current");
}
