import type { CountsByTypeAndSeverity } from '@watchdeck/core';

/** Severity buckets of the card's insight and incident rows: medium and low merge (seed 002 section 9). */
const RED = ['critical', 'blocker', 'high'];
const ORANGE = ['medium', 'low'];

export interface SummaryRow {
  type: string;
  red: number;
  orange: number;
  gray: number;
  /** the severity a link filters by for each bucket: the worst one present */
  redSeverity: string;
  orangeSeverity: string;
  graySeverity: string;
}

/** One row per type with its red, orange and other counts, sorted by red then orange counts. */
export function summaryRows(counts: CountsByTypeAndSeverity | undefined): SummaryRow[] {
  if (!counts) return [];
  const rows: SummaryRow[] = [];
  for (const [type, bySeverity] of Object.entries(counts)) {
    const row: SummaryRow = {
      type,
      red: 0,
      orange: 0,
      gray: 0,
      redSeverity: 'high',
      orangeSeverity: 'medium',
      graySeverity: 'info',
    };
    let redSet = false;
    let orangeSet = false;
    let graySet = false;
    // worst first, so the link of a bucket filters by the worst severity in it
    const others = Object.keys(bySeverity).filter((s) => !RED.includes(s) && !ORANGE.includes(s));
    for (const sev of [...RED, ...ORANGE, ...others]) {
      const n = bySeverity[sev] ?? 0;
      if (!n) continue;
      if (RED.includes(sev)) {
        row.red += n;
        if (!redSet) [row.redSeverity, redSet] = [sev, true];
      } else if (ORANGE.includes(sev)) {
        row.orange += n;
        if (!orangeSet) [row.orangeSeverity, orangeSet] = [sev, true];
      } else {
        row.gray += n;
        if (!graySet) [row.graySeverity, graySet] = [sev, true];
      }
    }
    if (row.red + row.orange + row.gray > 0) rows.push(row);
  }
  return rows.sort((a, b) => b.red - a.red || b.orange - a.orange || a.type.localeCompare(b.type));
}
