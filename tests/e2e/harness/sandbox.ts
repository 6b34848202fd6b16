import { startSandbox, type RealValidationOptions } from "certreseller-sandbox";
import { ManagementClient, type SandboxConfig } from "../../support/sandbox-management.js";

/** A sandbox on a free loopback port, tuned for the engine: instant issuance, no cooldown to wait out. */
export interface TestSandbox {
  url: string;
  managementUrl: string;
  /** The funded account's key. Tests pass it as secret stack config and look for it in state. */
  apiKey: string;
  username: string;
  caCertificatePem: string;
  management: ManagementClient;
  stop(): Promise<void>;
}

/** Cooldowns a scenario does not test are set to zero so the engine never waits them out. */
export const FAST_SANDBOX: SandboxConfig = {
  validation: "auto",
  issueAfterSeconds: 0,
  statusCooldownSeconds: 0,
  methodCooldownSeconds: 0,
};

/** `realValidation`: where `validation: "real"` looks (e.g. `{ resolver: bind.address }`, a BIND of tests/e2e/dns/). */
export async function startTestSandbox(config: SandboxConfig = {}, realValidation?: RealValidationOptions): Promise<TestSandbox> {
  const sandbox = await startSandbox({ port: 0, host: "127.0.0.1", ...FAST_SANDBOX, ...config, ...(realValidation ? { realValidation } : {}) });
  const management = new ManagementClient(sandbox.managementUrl);
  const account = sandbox.accounts[0];
  if (!account) throw new Error("the sandbox started without a funded account");
  return {
    url: sandbox.url,
    managementUrl: sandbox.managementUrl,
    apiKey: account.apiKey,
    username: account.username,
    caCertificatePem: sandbox.caCertificatePem,
    management,
    stop: () => sandbox.stop(),
  };
}
