/** Pickers' lists: people, teams and components; kept for 5 minutes (seed 000 section 9). */
export const STALE = 5 * 60_000;
