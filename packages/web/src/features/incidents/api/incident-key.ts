/**
 * The incident detail page's reads. The incident with its whole hypothesis tree and every
 * evidence (with the resource each points at) is one request; comments, responders and the
 * changelog are their own calls (seed 001 section 7), each refreshed after the writes that
 * change them (use-incident, use-comments, use-responders, use-history). Every key starts with
 * ['incident', id] so one invalidation refreshes the page.
 */
export const incidentKey = (id: string) => ['incident', id] as const;
