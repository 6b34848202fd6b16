import * as os from "node:os";
import * as path from "node:path";
import { defineConfig } from "vitest/config";

// Each component owns its vitest project (its own timeouts, setup and pool);
// the root only lists them so `vitest run` is the one test command.
export default defineConfig({
  test: {
    projects: ["sdk", "sandbox", "policy", "examples", "tests/e2e"],
    env: {
      // Node's on-disk compile cache for every Node process of the run: each
      // engine operation starts fresh language hosts and provider plugins that
      // load @pulumi/pulumi, and read its compiled code instead of compiling
      // it again (about 0.2 s of CPU each).
      NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-certreseller", "node-compile-cache"),
    },
  },
});
