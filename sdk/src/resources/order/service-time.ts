/**
 * `YYYY-MM-DD HH:MM:SS` (service time, UTC in the sandbox) or ISO → Date.
 *
 * @example
 * parseServiceTime("2026-11-22 09:30:00")?.toISOString() === "2026-11-22T09:30:00.000Z"
 */
export function parseServiceTime(text: string): Date | undefined {
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)
    ? `${text.replace(" ", "T")}Z`
    : /^\d{4}-\d{2}-\d{2}$/.test(text)
      ? `${text}T00:00:00Z`
      : text;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}
