import { defineConfig } from "vitest/config";
import { TEST_WORKERS } from "../../vitest.workers.mts";

// The real engine: each test drives `pulumi` through the Automation API.
// Files run side by side with the other projects' (TEST_WORKERS at once): each
// has its own sandbox, backend, PULUMI_HOME, temporary folders and free ports,
// and each runs in a process of its own (the forks pool), so what one file
// sets in process.env stays in it.
export default defineConfig({
  test: {
    name: "e2e",
    maxWorkers: TEST_WORKERS,
    include: ["**/*.test.ts"],
    globalSetup: ["./global-setup.ts", "./cloudflare/global-setup.ts"],
    setupFiles: ["./setup.ts"],
    testTimeout: 600_000,
    hookTimeout: 900_000,
    server: {
      deps: {
        // The workspace packages resolve through symlinks to sdk/dist and
        // sandbox/dist, outside node_modules, so Vite would transform them.
        // Pulumi serializes the resources' provider objects by looking their
        // modules up in Node's own require cache: load them natively, and
        // share the one native @pulumi/pulumi with the program.
        external: [/\/sdk\/dist\//, /\/sandbox\/dist\//, /node_modules/],
      },
    },
  },
});
