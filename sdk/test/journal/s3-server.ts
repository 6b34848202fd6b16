// A real S3-compatible HTTP server (s3rver, which checks SigV4 signatures) on 127.0.0.1, for journal tests.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

// s3rver ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require("s3rver") as new (options: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** The environment a provider or the journal command needs: the standard AWS variables. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startLocalS3(bucket = "certreseller-journal"): Promise<LocalS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-s3-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    // s3rver's fixed account.
    env: { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER", AWS_REGION: "us-east-1", AWS_ENDPOINT_URL_S3: endpoint },
    stop: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
