#!/usr/bin/env node
// Moves the views, functions and triggers that versioned migrations define into the areas' SQL
// files (packages/server/src/<area>/sql/*.sql, applied by db/migrate.ts whenever they change;
// layout in packages/server/src/db/README.md). Kept because branches written before the move add
// migrations that still define such objects: run it after merging them (`node
// scripts/oneoff/move-sql-to-areas.mjs`), read the diff, then prove the schema is unchanged
// (db/README.md "Checking a move").
//
// For every object the migrations define, the last definition replaces the one in its area file
// (or is appended there), written so it can run again (CREATE OR REPLACE; DROP TRIGGER IF EXISTS
// + CREATE TRIGGER), and every definition of it leaves the migrations. An object the migrations
// finally drop leaves the area file; the migration's DROP stays, as DROP ... IF EXISTS, for
// databases that have it (a DROP ... IF EXISTS is taken as seen already: a new migration that
// removes an object that way needs it removed from its area file by hand). Kept in the migrations: set_updated_at() and the *_updated_at
// triggers (table plumbing every table migration uses). An object with no area below, or a DO
// block that creates objects, stops the script: add it to AREA_OF, or move the block by hand.
import { readFileSync, writeFileSync, readdirSync, existsSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = join(dirname(fileURLToPath(import.meta.url)), '../../packages/server/src');
const migrationsDir = join(src, 'db/migrations');

const FILES = {
  auth: 'auth/sql/10-caller.sql',
  jobs: 'jobs/sql/10-events.sql',
  health: 'health/sql/20-health.sql',
  catalog: 'catalog/sql/30-catalog.sql',
  settings: 'settings/sql/30-settings.sql',
  playbooks: 'playbooks/sql/30-playbooks.sql',
  notifications: 'notifications/sql/30-notifications.sql',
  topology: 'topology/sql/40-topology.sql',
  incidents: 'incidents/sql/50-incidents.sql',
};
const HEADERS = {
  auth: 'Who is writing: the caller of /api/db as the database sees it, and created_by set from it.',
  jobs: 'Events, job history and the queue pages.',
  health: 'Health checks: the summary views and the JSON heads of the summary feed (check_feed).',
  catalog: 'The catalog: list and detail views, filter values, the relationship graph functions.',
  settings: 'Settings resources: the lists with their latest job, and the source guard.',
  playbooks: 'Playbooks: names and runs.',
  notifications: 'Notifications: rules with their send statistics, the send history.',
  topology: 'Topology: component lists, what is linked to a component, component status events.',
  incidents: 'Incidents: every trigger, trigger function, write function and view of the area.',
};

// object name (function, view or trigger) -> area; triggers not named here go by their table
const AREA_OF = {
  auth: 'request_person_id request_roles created_by_caller',
  jobs: 'publish_event resource_name job_histories job_history_names event_queue_summary',
  health:
    'checks_summary check_labels check_relationships check_feed_head check_feed_from_checks check_feed_from_canaries ' +
    'check_feed_from_agents check_feed_bump check_feed_checks check_feed_canaries check_feed_agents check_feed_changed',
  catalog:
    'configs config_detail config_summary config_names config_types config_classes config_statuses config_tags ' +
    'config_labels change_types analysis_types analyzers catalog_changes config_changes_summary config_changes_by_type ' +
    'config_analysis_items config_relationships_items related_config_ids related_changes related_configs ' +
    'check_summary_for_config',
  settings:
    'agents_summary canaries_with_status topologies_with_status config_scrapers_with_status teams_with_status ' +
    'logging_backends_with_status integrations_with_status refuse_foreign_source_write',
  playbooks: 'playbook_names playbook_runs_summary',
  notifications: 'notifications_summary notifications_with_status notification_send_history_summary',
  topology:
    'component_names components_with_logs component_labels component_types checks_by_component configs_by_component ' +
    'config_changes_by_component config_analysis_by_component components_status_stamp components_status_events',
  incidents:
    'incident_history_enabled incident_status_moves incidents_enforce incident_history_add incidents_history ' +
    'hypotheses_defaults hypotheses_history evidences_defaults evidences_history responders_defaults responders_history ' +
    'comments_defaults comments_history responder_type_fields render_template responder_value_blank responders_prepare ' +
    'responders_dispatch responders_guard incidents_responder_timeline comments_mentions create_incident ' +
    'update_incident_status incidents_reopen incidents_number incidents_number_save evidences_dod_evaluate ' +
    'comments_author_only incident_summary incidents_by_component incidents_by_config',
};
const TABLE_AREA = {
  incidents: 'incidents',
  hypotheses: 'incidents',
  evidences: 'incidents',
  comments: 'incidents',
  responders: 'incidents',
  incident_rules: 'incidents',
  incident_histories: 'incidents',
  checks: 'health',
  check_feed: 'health',
  check_statuses: 'health',
  components: 'topology',
  topologies: 'settings',
  canaries: 'settings',
  config_scrapers: 'settings',
  teams: 'settings',
  logging_backends: 'settings',
  notifications: 'settings',
  config_items: 'catalog',
  config_changes: 'catalog',
  config_analysis: 'catalog',
  config_relationships: 'catalog',
  playbooks: 'playbooks',
  playbook_runs: 'playbooks',
  event_queue: 'jobs',
  job_history: 'jobs',
};
const areaOfName = new Map(Object.entries(AREA_OF).flatMap(([a, names]) => names.split(/\s+/).map((n) => [n, a])));

/** Statements of a SQL text with their offsets (quotes, dollar quotes and comments respected). */
function statements(sql) {
  const out = [];
  let i = 0;
  let start = null;
  while (i < sql.length) {
    const c = sql[i];
    if (c === '-' && sql[i + 1] === '-') {
      const e = sql.indexOf('\n', i);
      i = e < 0 ? sql.length : e + 1;
      continue;
    }
    if (c === '/' && sql[i + 1] === '*') {
      i = sql.indexOf('*/', i) + 2;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (start === null) start = i;
    if (c === "'" || c === '"') {
      let j = i + 1;
      for (;;) {
        if (sql[j] === c && sql[j + 1] === c) j += 2;
        else if (sql[j] === c) break;
        else j++;
      }
      i = j + 1;
      continue;
    }
    if (c === '$') {
      const m = /^\$[A-Za-z_]*\$/.exec(sql.slice(i));
      if (m) {
        const e = sql.indexOf(m[0], i + m[0].length);
        i = e + m[0].length;
        continue;
      }
    }
    if (c === ';') {
      out.push({ start, end: i + 1, text: sql.slice(start, i + 1) });
      start = null;
    }
    i++;
  }
  return out;
}

/** Where the comment lines written directly above a statement begin. */
function commentStart(sql, stmtStart) {
  let s = sql.lastIndexOf('\n', stmtStart - 1) + 1;
  for (;;) {
    if (s === 0) return s;
    const prev = sql.lastIndexOf('\n', s - 2) + 1;
    if (
      !sql
        .slice(prev, s - 1)
        .trim()
        .startsWith('--')
    )
      return s;
    s = prev;
  }
}

/** What a statement defines or drops: { op, kind, name, table } or null. */
function classify(text) {
  let m = /^CREATE\s+(?:OR\s+REPLACE\s+)?(FUNCTION|VIEW)\s+(\w+)/i.exec(text);
  if (m) return { op: 'create', kind: m[1].toLowerCase(), name: m[2] };
  m = /^CREATE\s+(?:OR\s+REPLACE\s+)?TRIGGER\s+(\w+)[\s\S]*?\sON\s+(\w+)/i.exec(text);
  if (m) return { op: 'create', kind: 'trigger', name: m[1], table: m[2] };
  m = /^DROP\s+(FUNCTION|VIEW|TRIGGER)\s+(?:IF\s+EXISTS\s+)?(\w+)(?:[^;]*?\sON\s+(\w+))?/i.exec(text);
  if (m) return { op: 'drop', kind: m[1].toLowerCase(), name: m[2], table: m[3] };
  if (/^DO\b/i.test(text) && /CREATE\s+(OR\s+REPLACE\s+)?(FUNCTION|VIEW|TRIGGER)/i.test(text)) return { op: 'do' };
  return null;
}
const keyOf = (c) => (c.kind === 'trigger' ? `trigger ${c.name} ON ${c.table}` : `${c.kind} ${c.name}`);
const kept = (c, text) =>
  (c.kind === 'function' && c.name === 'set_updated_at') ||
  (c.kind === 'trigger' && /_updated_at$/.test(c.name) && /EXECUTE\s+FUNCTION\s+set_updated_at\(\)/i.test(text));

/** The statement written so it can run again on a database that has the object. */
function idempotent(c, text) {
  if (c.kind === 'trigger') {
    const body = text.replace(/^CREATE\s+OR\s+REPLACE\s+TRIGGER/i, 'CREATE TRIGGER');
    return `DROP TRIGGER IF EXISTS ${c.name} ON ${c.table};\n${body}`;
  }
  return text.replace(
    /^CREATE\s+(?:OR\s+REPLACE\s+)?(FUNCTION|VIEW)/i,
    (_, k) => `CREATE OR REPLACE ${k.toUpperCase()}`,
  );
}

// ---- what the migrations define, in order; the last definition wins
const finalDef = new Map(); // key -> { area, chunk } | null (dropped)
const order = [];
const problems = [];
const migrationFiles = readdirSync(migrationsDir)
  .filter((f) => /^\d{4}_.+\.sql$/.test(f))
  .sort();
const edits = new Map(); // file -> new text
for (const file of migrationFiles) {
  const sql = readFileSync(join(migrationsDir, file), 'utf8');
  const cuts = []; // [from, to, replacement]
  for (const st of statements(sql)) {
    const c = classify(st.text);
    if (!c) continue;
    if (c.op === 'do') {
      problems.push(`${file}: a DO block creates objects: move it to an area file by hand`);
      continue;
    }
    if (kept(c, st.text)) continue;
    const key = keyOf(c);
    if (c.op === 'drop') {
      // a drop this script has seen already reads IF EXISTS: it says nothing about the area files
      if (/^DROP\s+\w+\s+IF\s+EXISTS/i.test(st.text)) continue;
      finalDef.set(key, null);
      cuts.push([
        st.start,
        st.end,
        st.text.replace(/^DROP\s+(FUNCTION|VIEW|TRIGGER)\s+/i, (m0, k) => `DROP ${k.toUpperCase()} IF EXISTS `),
      ]);
      continue;
    }
    const area = areaOfName.get(c.name) ?? (c.kind === 'trigger' ? TABLE_AREA[c.table] : undefined);
    const from = commentStart(sql, st.start);
    const comment = sql.slice(from, st.start);
    if (!finalDef.has(key) || finalDef.get(key) === null) order.push(key);
    finalDef.set(key, { area, file, chunk: comment + idempotent(c, st.text) });
    let to = st.end;
    if (sql[to] === '\n') to++;
    cuts.push([from, to, '']);
  }
  if (cuts.length) {
    let out = sql;
    for (const [from, to, rep] of cuts.sort((a, b) => b[0] - a[0])) out = out.slice(0, from) + rep + out.slice(to);
    out = out.replace(/\n{3,}/g, '\n\n').replace(/\n+$/, '\n');
    edits.set(file, out);
  }
}
// an object finally dropped needs no area
for (const [key, def] of finalDef)
  if (def && !def.area) problems.push(`${def.file}: ${key} has no area: add it to AREA_OF`);
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}

// ---- the area files: pieces keyed like the migrations' objects; a piece's lead is the text
// before its own comment (blank lines, section headings), kept as it is
function parseArea(text) {
  const pieces = [];
  let prevEnd = 0;
  let pendingDrop = null;
  for (const st of statements(text)) {
    const c = classify(st.text);
    const from = commentStart(text, st.start);
    if (c?.op === 'drop' && c.kind === 'trigger') {
      pendingDrop = { from, lead: text.slice(prevEnd, from) };
      continue;
    }
    const begin = pendingDrop ? pendingDrop.from : from;
    const lead = pendingDrop ? pendingDrop.lead : text.slice(prevEnd, from);
    pendingDrop = null;
    const key = c && c.op === 'create' ? keyOf(c) : `other ${pieces.length}`;
    pieces.push({ key, lead, body: text.slice(begin, st.end) });
    prevEnd = st.end;
  }
  return { prefix: '', pieces, tail: text.slice(prevEnd) };
}
const areas = {};
for (const [area, rel] of Object.entries(FILES)) {
  const path = join(src, rel);
  areas[area] = existsSync(path)
    ? parseArea(readFileSync(path, 'utf8'))
    : {
        prefix: `-- ${HEADERS[area]}\n-- Applied after the versioned migrations whenever this file changes (db/README.md): every\n-- statement can run again.`,
        pieces: [],
        tail: '\n',
      };
}
const changedAreas = new Set();
const remove = (a, i) => {
  // a section heading before the piece stays for the next one
  const { lead } = a.pieces[i];
  a.pieces.splice(i, 1);
  if (/--/.test(lead)) {
    if (a.pieces[i]) a.pieces[i].lead = lead + a.pieces[i].lead;
    else a.tail = lead + a.tail;
  }
};
for (const key of order) {
  const def = finalDef.get(key);
  for (const [area, a] of Object.entries(areas)) {
    const i = a.pieces.findIndex((p) => p.key === key);
    if (i < 0) continue;
    if (def === null || def.area !== area) remove(a, i);
    else a.pieces[i].body = def.chunk;
    changedAreas.add(area);
  }
  if (def && !areas[def.area].pieces.some((p) => p.key === key)) {
    areas[def.area].pieces.push({ key, lead: '\n\n', body: def.chunk });
    changedAreas.add(def.area);
  }
}
for (const [key, def] of finalDef) {
  if (def !== null) continue;
  for (const [area, a] of Object.entries(areas)) {
    const i = a.pieces.findIndex((p) => p.key === key);
    if (i >= 0) {
      remove(a, i);
      changedAreas.add(area);
    }
  }
}
for (const area of changedAreas) {
  const path = join(src, FILES[area]);
  mkdirSync(dirname(path), { recursive: true });
  const a = areas[area];
  const text = a.prefix + a.pieces.map((p) => p.lead + p.body).join('') + a.tail;
  writeFileSync(
    path,
    text
      .replace(/^\n+/, '')
      .replace(/\n{3,}/g, '\n\n')
      .replace(/\n*$/, '\n'),
  );
  console.log(`wrote ${FILES[area]}`);
}
for (const [file, text] of edits) {
  writeFileSync(join(migrationsDir, file), text);
  console.log(`moved out of ${file}`);
}
