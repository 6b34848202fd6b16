// `npm run plugin:pack [-- --out DIR]`: the provider plugin archive for
// `pulumi plugin install resource certreseller <version> --file <archive>`.
import { packPlugin } from "./pack.js";

const at = process.argv.indexOf("--out");
packPlugin({ outDir: at > 0 ? process.argv[at + 1] : undefined, log: (line) => console.error(line) })
  .then(({ version, archivePath }) => {
    console.log(archivePath);
    console.error(`install it with: pulumi plugin install resource certreseller ${version} --file ${archivePath}`);
  })
  .catch((error: unknown) => {
    console.error(`plugin:pack: ${(error as Error).message}`);
    process.exit(1);
  });
