/**
 * The `select` of the incident screens' /api/db reads. Plain strings with no imports, so the
 * benchmark (bench/scenarios/incidents-*.ts) measures exactly what the pages ask for.
 */
export const PERSON = 'id,name,avatar';

/** The evidence columns the pages show (not updated_at: a 1,000-evidence tree is ~15% less JSON). */
const EVIDENCE_SELECT = [
  'id,hypothesis_id,type,description,evidence,properties,check_id,component_id,config_id,config_change_id,config_analysis_id',
  'definition_of_done,done,script,created_at,external_created_by',
  `created_by(${PERSON})`,
  'check:check_id(id,name,type,status,icon,canary_id)',
  'component:component_id(id,name,type,icon,status)',
  'config:config_id(id,name,type,health,status)',
  'config_change:config_change_id(id,change_type,summary,severity,config_id)',
  'config_analysis:config_analysis_id(id,analyzer,analysis_type,severity,status,message,config_id)',
].join(',');

/** The incident with its whole hypothesis tree and every evidence: the detail page in one request. */
export const DETAIL_SELECT = [
  '*',
  `creator:created_by(${PERSON})`,
  `commander:commander_id(${PERSON})`,
  `communicator:communicator_id(${PERSON})`,
  `hypotheses(id,incident_id,parent_id,title,type,status,created_at,created_by(${PERSON}),evidences(${EVIDENCE_SELECT}))`,
].join(',');

/** A row of the list (incident_summary). */
export const LIST_SELECT = 'id,incident_id,title,type,status,severity,created_at,created_by,commander,responders';

export const RESPONDER_SELECT = `*,team:team_id(id,name,icon,spec),person:person_id(${PERSON}),created_by(${PERSON})`;

export const HISTORY_SELECT =
  `id,type,description,created_at,created_by(${PERSON}),hypothesis:hypothesis_id(id,title),evidence:evidence_id(id,type,description),` +
  `responder:responder_id(id,type,person:person_id(${PERSON}),team:team_id(id,name,icon))`;
