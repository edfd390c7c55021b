/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies of the fakes are inspected loosely */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One local HTTP listener acting as the ticket systems incident responders talk to, answering as
 * the real APIs do (their documented paths and answer shapes), and recording every request:
 *
 *   /jira    Jira REST API v2 (basic auth jira-bot:jira-token): create issue, projects,
 *            createmeta issue types, priorities, myself
 *   /snow    ServiceNow Table API (basic auth snow-bot:snow-pass): create incident, read sys_user
 *   /login   Microsoft identity platform: client-credentials token (client planner-app:planner-secret)
 *   /graph   Microsoft Graph v1.0 Planner: plans of a group, buckets, create task, task details
 *   /cases   the generic support-case webhook (bearer case-token)
 *
 * `fail` makes a system answer 500 with its own error shape until cleared.
 */
interface Recorded {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface TicketSystems {
  url: string;
  requests: Recorded[];
  fail: Set<'jira' | 'snow' | 'graph' | 'cases'>;
  close(): Promise<void>;
}

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

export async function startTicketSystems(): Promise<TicketSystems> {
  const requests: Recorded[] = [];
  const fail = new Set<'jira' | 'snow' | 'graph' | 'cases'>();
  let issue = 0;
  let task = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const path = url.pathname;
      let body: any;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      requests.push({ method: req.method ?? 'GET', path: path + url.search, headers: req.headers, body });
      const send = (status: number, payload?: unknown) => {
        res.writeHead(status, payload === undefined ? {} : { 'content-type': 'application/json' });
        res.end(payload === undefined ? undefined : JSON.stringify(payload));
      };

      if (path.startsWith('/jira/')) {
        if (req.headers.authorization !== basic('jira-bot', 'jira-token'))
          return send(401, { errorMessages: ['You are not authenticated'], errors: {} });
        if (fail.has('jira')) return send(500, { errorMessages: ['Jira is down for maintenance'], errors: {} });
        const p = path.slice('/jira'.length);
        if (p === '/rest/api/2/issue' && req.method === 'POST') {
          if (!body?.fields?.summary)
            return send(400, { errorMessages: [], errors: { summary: 'You must specify a summary of the issue.' } });
          issue++;
          return send(201, {
            id: String(10000 + issue),
            key: `${body.fields.project.key}-${issue}`,
            self: `http://jira/rest/api/2/issue/${10000 + issue}`,
          });
        }
        if (p === '/rest/api/2/project')
          return send(200, [
            { id: '1', key: 'OPS', name: 'Operations' },
            { id: '2', key: 'PLAT', name: 'Platform' },
          ]);
        if (p === '/rest/api/2/issue/createmeta/OPS/issuetypes') {
          return send(200, {
            values: [
              { id: '10', name: 'Incident' },
              { id: '11', name: 'Task' },
              { id: '12', name: 'Sub-task', subtask: true },
            ],
            total: 3,
          });
        }
        if (p.startsWith('/rest/api/2/issue/createmeta/'))
          return send(404, { errorMessages: ['No project could be found with key'], errors: {} });
        if (p === '/rest/api/2/priority')
          return send(200, [
            { id: '1', name: 'Highest' },
            { id: '2', name: 'High' },
            { id: '3', name: 'Medium' },
          ]);
        if (p === '/rest/api/2/myself') return send(200, { name: 'jira-bot' });
        return send(404, { errorMessages: ['not found'] });
      }

      if (path.startsWith('/snow/')) {
        if (req.headers.authorization !== basic('snow-bot', 'snow-pass'))
          return send(401, {
            error: { message: 'User Not Authenticated', detail: 'Required to provide Auth information' },
            status: 'failure',
          });
        if (fail.has('snow'))
          return send(500, {
            error: { message: 'Transaction cancelled', detail: 'maximum execution time exceeded' },
            status: 'failure',
          });
        if (path === '/snow/api/now/table/incident' && req.method === 'POST') {
          return send(201, {
            result: {
              sys_id: '9d385017c611228701d22104cc95c371',
              number: 'INC0010042',
              short_description: body?.short_description,
            },
          });
        }
        if (path === '/snow/api/now/table/sys_user' && req.method === 'GET')
          return send(200, { result: [{ sys_id: '6816f79cc0a8016401c5a33be04be441' }] });
        return send(404, { error: { message: 'Invalid table' } });
      }

      if (path === '/login/tenant-1/oauth2/v2.0/token' && req.method === 'POST') {
        const form = new URLSearchParams(raw);
        if (
          form.get('client_id') !== 'planner-app' ||
          form.get('client_secret') !== 'planner-secret' ||
          form.get('grant_type') !== 'client_credentials'
        ) {
          return send(401, {
            error: 'invalid_client',
            error_description: 'AADSTS7000215: Invalid client secret provided.',
          });
        }
        return send(200, { token_type: 'Bearer', expires_in: 3599, access_token: 'graph-token-1' });
      }

      if (path.startsWith('/graph/')) {
        if (req.headers.authorization !== 'Bearer graph-token-1')
          return send(401, { error: { code: 'InvalidAuthenticationToken', message: 'Access token is empty.' } });
        if (fail.has('graph'))
          return send(503, {
            error: { code: 'serviceNotAvailable', message: 'The service is temporarily unavailable.' },
          });
        const p = path.slice('/graph'.length);
        if (p === '/groups/group-1/planner/plans')
          return send(200, {
            value: [
              { id: 'plan-1', title: 'Databases' },
              { id: 'plan-2', title: 'Network' },
            ],
          });
        if (p === '/planner/plans/plan-1/buckets')
          return send(200, {
            value: [
              { id: 'bucket-1', name: 'Incidents' },
              { id: 'bucket-2', name: 'Backlog' },
            ],
          });
        if (p === '/planner/tasks' && req.method === 'POST') {
          task++;
          return send(201, {
            id: `task-${task}`,
            planId: body?.planId,
            bucketId: body?.bucketId,
            title: body?.title,
            priority: body?.priority,
          });
        }
        const details = /^\/planner\/tasks\/([^/]+)\/details$/.exec(p);
        if (details && req.method === 'GET')
          return send(200, {
            id: details[1],
            '@odata.etag': 'W/"JzEtVGFza0RldGFpbHMgQEBAQEBAQEBAQEBAQEBARCc="',
            description: '',
          });
        if (details && req.method === 'PATCH') {
          if (!req.headers['if-match'])
            return send(412, { error: { code: 'PreconditionFailed', message: 'If-Match header is required' } });
          return send(204);
        }
        return send(404, { error: { code: 'NotFound', message: 'not found' } });
      }

      if (path === '/cases' && req.method === 'POST') {
        if (req.headers.authorization !== 'Bearer case-token') return send(401, { message: 'bad token' });
        if (fail.has('cases')) return send(502, { message: 'case system unavailable' });
        return send(201, { id: 'CASE-77', url: 'https://support.example.com/cases/CASE-77' });
      }
      send(404, { message: 'not found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    fail,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
