import { defineConfig } from "vitest/config";

// The real engine: each test drives `pulumi` through the Automation API.
// Runs one file at a time — the machine has two cores and the engine is heavy.
export default defineConfig({
  test: {
    name: "e2e",
    include: ["**/*.test.ts"],
    globalSetup: ["./global-setup.ts", "./cloudflare/global-setup.ts"],
    setupFiles: ["./setup.ts"],
    testTimeout: 600_000,
    hookTimeout: 900_000,
    fileParallelism: false,
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
