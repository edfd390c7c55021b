import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';

/**
 * The calls of the Link to Incident dialog (seed 000 section 7 "Incident linking"): the pickers'
 * lists, then POST /incidents, POST /hypotheses and POST /evidences through /api/db.
 */
interface IncidentOption {
  id: string;
  incident_id: string;
  title: string;
  status: string;
}

interface HypothesisOption {
  id: string;
  title: string | null;
  type: string;
}

/** Incidents still being worked on, newest first. */
export function useOpenIncidents(enabled: boolean) {
  return useQuery({
    queryKey: ['link-to-incident', 'incidents'],
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('incidents')
          .select('id,incident_id,title,status')
          .not('status', 'in', '(resolved,closed)')
          .order('created_at', { ascending: false })
          .limit(100)
          .abortSignal(signal),
      ) as IncidentOption[],
    enabled,
  });
}

export function useHypotheses(incidentId: string | undefined) {
  return useQuery({
    queryKey: ['link-to-incident', 'hypotheses', incidentId],
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('hypotheses')
          .select('id,title,type')
          .eq('incident_id', incidentId!)
          .order('created_at')
          .limit(200)
          .abortSignal(signal),
      ) as HypothesisOption[],
    enabled: !!incidentId,
  });
}

async function insertOne<T>(table: string, row: Record<string, unknown>): Promise<T> {
  const rows = unwrap(await db.from(table).insert(row).select('id')) as T[];
  return rows[0];
}

/** What is being attached: the evidence row's type and its resource column. */
export interface EvidenceTarget {
  type: 'check' | 'config' | 'topology' | 'config_change' | 'config_analysis' | 'log';
  check_id?: string;
  config_id?: string;
  component_id?: string;
  config_change_id?: string;
  config_analysis_id?: string;
  /** a snapshot of what was seen, kept with the evidence */
  evidence?: Record<string, unknown>;
}

export interface LinkRequest {
  /** an existing incident, or undefined to create one titled `incidentTitle` */
  incidentId?: string;
  incidentTitle: string;
  type: string;
  severity: string;
  /** an existing hypothesis, or undefined to create a root hypothesis */
  hypothesisId?: string;
  hypothesisTitle: string;
  description: string;
  createdBy: string;
  target: EvidenceTarget;
}

export type LinkResult =
  { ok: true; incidentId: string } | { ok: false; stage: 'incident' | 'hypothesis' | 'evidence'; error: unknown };

/**
 * The link flow (seed 000 sections 4 and 5): a new incident starts open with a new root
 * hypothesis; no hypothesis chosen also makes a root hypothesis, titled from the hypothesis
 * description or else the incident description; then the evidence is attached. Incident and
 * hypothesis failures are only logged; the caller learns which stage failed.
 */
export async function linkToIncident(req: LinkRequest): Promise<LinkResult> {
  let incidentId = req.incidentId;
  if (!incidentId) {
    try {
      const created = await insertOne<{ id: string }>('incidents', {
        title: req.incidentTitle.trim(),
        type: req.type,
        severity: req.severity,
        status: 'open',
        created_by: req.createdBy,
      });
      incidentId = created.id;
    } catch (error) {
      console.error('Link to Incident: creating the incident failed', error);
      return { ok: false, stage: 'incident', error };
    }
  }
  let hypothesisId = req.incidentId ? req.hypothesisId : undefined;
  if (!hypothesisId) {
    try {
      const created = await insertOne<{ id: string }>('hypotheses', {
        incident_id: incidentId,
        type: 'root',
        status: 'possible',
        title: req.hypothesisTitle.trim() || req.incidentTitle.trim() || req.description.trim(),
        created_by: req.createdBy,
      });
      hypothesisId = created.id;
    } catch (error) {
      console.error('Link to Incident: creating the hypothesis failed', error);
      return { ok: false, stage: 'hypothesis', error };
    }
  }
  try {
    await insertOne('evidences', {
      hypothesis_id: hypothesisId,
      description: req.description.trim() || null,
      created_by: req.createdBy,
      ...req.target,
    });
  } catch (error) {
    return { ok: false, stage: 'evidence', error };
  }
  return { ok: true, incidentId };
}
