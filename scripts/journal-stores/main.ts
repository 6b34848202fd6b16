// `npx tsx scripts/journal-stores/main.ts`: builds (or finds cached) the Go bucket servers the journal's store tests
// start, MinIO and fake-gcs-server, and prints where each is and how long providing it took. Azurite comes with `npm install`.
import { ensureGoServer, FAKE_GCS, MINIO } from "./index.js";

async function main(): Promise<void> {
  const log = (line: string): void => console.error(`[journal-stores] ${line}`);
  // One after the other: each build already uses both cores.
  for (const server of [FAKE_GCS, MINIO]) {
    const started = Date.now();
    const binary = await ensureGoServer(server, log);
    console.log(`${server.label} ${server.version}: ${binary} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
