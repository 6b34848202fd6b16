import { resolveJournal, type JournalSettings } from "./open.js";

/** Environment variables set by CI systems whose runners are thrown away after the job. */
const CI_MARKERS = ["GITHUB_ACTIONS", "GITLAB_CI", "PULUMI_DEPLOYMENTS", "BUILDKITE", "CIRCLECI", "JENKINS_URL", "TF_BUILD", "BITBUCKET_BUILD_NUMBER"] as const;

/** The CI system detected, or undefined outside CI. */
export function detectCi(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const marker of CI_MARKERS) if (env[marker]) return marker;
  // Pulumi Deployments sets PULUMI_CI_SYSTEM; most others set CI=true.
  if (env.PULUMI_CI_SYSTEM) return env.PULUMI_CI_SYSTEM;
  const ci = env.CI?.trim().toLowerCase();
  return ci && ci !== "false" && ci !== "0" ? "CI" : undefined;
}

let warned = false;

/**
 * The warning for a purchase about to be made in CI with a journal in a
 * local directory (which the runner throws away), once per process; else
 * undefined. A journal in a bucket (a setting, or beside a bucket backend's
 * state) draws none.
 */
export function ephemeralJournalWarning(settings: JournalSettings, env: NodeJS.ProcessEnv = process.env, backend?: string): string | undefined {
  if (warned || settings.journalUrl) return undefined;
  const ci = detectCi(env);
  if (!ci) return undefined;
  if (resolveJournal(settings, env, backend).url) return undefined;
  warned = true;
  return (
    `this run looks like CI (${ci}) and the purchase journal is the local directory ${settings.journalDir}, which a CI runner throws away: ` +
    "if this job is cancelled while an Order is being bought, a rerun on a fresh runner cannot tell the order was paid and buys it again. " +
    "Keep the journal in a bucket: set certreseller:journalUrl (or CERTRESELLER_JOURNAL_URL) to s3://<bucket>/<prefix>, gs://<bucket>/<prefix> " +
    "or azblob://<container>/<prefix>, reached with that cloud's own credentials (with an s3://, gs:// or azblob:// Pulumi backend and no journal " +
    "setting, the journal is kept beside the state; see docs/journal.md)."
  );
}

/** Lets tests observe the warning again. */
export function resetCiWarningForTests(): void {
  warned = false;
}
