// Before any sdk test file: the Go bucket servers of the journal's store tests (MinIO, fake-gcs-server), from the
// cache or built once from the Go module proxy, so no test file's hook waits minutes for a build while others run.
// Under CI a server that cannot be provided fails the run; elsewhere the store tests skip, saying why.
import { ensureGoServer, FAKE_GCS, MINIO } from "../../../scripts/journal-stores/index.js";
import { underCi } from "../../../tests/support/ci.js";

export default async function setup(): Promise<void> {
  const log = (line: string): void => console.error(`[journal-stores] ${line}`);
  for (const server of [FAKE_GCS, MINIO]) {
    const started = Date.now();
    try {
      const binary = await ensureGoServer(server, log);
      if (Date.now() - started > 1_000) log(`${server.label} ready in ${Math.round((Date.now() - started) / 1000)} s: ${binary}`);
    } catch (error) {
      if (underCi()) throw error;
      log(`${server.label} could not be provided (${(error as Error).message}); the journal store tests that need it will skip`);
    }
  }
}
