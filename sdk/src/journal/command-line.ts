/**
 * How the user of this process runs the journal command, for the command
 * lines messages print. Two front ends run the same code:
 *
 * - a TypeScript program has the package installed in its project, whose
 *   `certreseller` bin npm links into node_modules/.bin. No package of that
 *   name is published, so npx without `--no-install` would ask the registry
 *   and install whatever anyone registered under it, without asking when
 *   stdin is not a terminal, then run it with the API key in the environment.
 *   `--no-install` makes npx run only what is installed: it fails rather
 *   than fetch;
 * - the provider plugin (Pulumi YAML, Go, Python, C#) is no npm package of
 *   the user's project: its entry sets its own executable here (see
 *   cmd/pulumi-resource-certreseller.ts), which runs the journal command as
 *   `<executable> journal …` from any folder.
 */

/** What a TypeScript program's user types: the project's installed bin, never a fetched package. */
export const INSTALLED_PACKAGE_RUNNER = "npx --no-install certreseller";

let runner = INSTALLED_PACKAGE_RUNNER;

/**
 * Sets the command this process's messages name before `journal …`: the
 * plugin's entry passes its executable. Process-wide on purpose: every
 * message of a plugin process is read by a plugin user.
 *
 * @example
 * useJournalRunner(shellWord("/home/u/.pulumi/plugins/resource-certreseller-v0.1.0/pulumi-resource-certreseller"));
 */
export function useJournalRunner(command: string): void {
  runner = command;
}

/**
 * The journal command line with `args`, as this process's user runs it
 * (no journal location: see `PurchaseJournal.command` for one that has it).
 *
 * @example
 * journalCommandLine("ls") // "npx --no-install certreseller journal ls" in a TypeScript program
 */
export function journalCommandLine(args: string): string {
  return `${runner} journal ${args}`;
}

/**
 * `value` as one word for a POSIX shell: as is when it holds only safe
 * characters, else single-quoted.
 *
 * @example
 * shellWord("/tmp/a b") // "'/tmp/a b'"
 */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
