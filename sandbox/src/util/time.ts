const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

/** `YYYY-MM-DD HH:MM:SS` in UTC, the service's date-time form. */
export function formatDateTime(d: Date | number): string {
  const t = new Date(d);
  return `${formatDate(t)} ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}`;
}

/** `YYYY-MM-DD` in UTC. */
export function formatDate(d: Date | number): string {
  const t = new Date(d);
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** ISO 8601 with an explicit `+00:00` offset (the form of `checked_at`). */
export function formatIsoWithOffset(d: Date | number): string {
  return new Date(d).toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

/** Compact `YYYYMMDDHHMMSS`, used inside identifiers. */
export function compactTimestamp(d: Date | number): string {
  return formatDateTime(d).replace(/[-: ]/g, "");
}

/** Adds calendar months in UTC, clamping the day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(d: Date, months: number): Date {
  const t = new Date(d.getTime());
  const day = t.getUTCDate();
  t.setUTCDate(1);
  t.setUTCMonth(t.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 0)).getUTCDate();
  t.setUTCDate(Math.min(day, lastDay));
  return t;
}
