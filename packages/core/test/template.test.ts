import { describe, expect, it } from 'vitest';
import { isTemplate, renderTemplate } from '../src/template.ts';

describe('responder templates', () => {
  const ctx = {
    incident: { incident_id: 'INC0000042', title: 'Checkout down', tags: { a: 1 } },
    external_id: 'OPS-7',
    project: 'OPS',
  };

  it('fills field paths from the context', () => {
    expect(renderTemplate('[{{.incident.incident_id}}] {{ .incident.title }}', ctx)).toBe('[INC0000042] Checkout down');
    expect(renderTemplate('https://jira.example.com/browse/{{.external_id}}', ctx)).toBe(
      'https://jira.example.com/browse/OPS-7',
    );
    expect(renderTemplate('{{.project}}-{{- .incident.title -}}', ctx)).toBe('OPS-Checkout down');
  });

  it('renders missing values empty, objects as JSON, and leaves other actions as written', () => {
    expect(renderTemplate('x{{.incident.missing.deeper}}y', ctx)).toBe('xy');
    expect(renderTemplate('{{.incident.tags}}', ctx)).toBe('{"a":1}');
    expect(renderTemplate('{{ if .x }}', ctx)).toBe('{{ if .x }}');
  });

  it('tells a template from a fixed value', () => {
    expect(isTemplate('{{.incident.title}}')).toBe(true);
    expect(isTemplate('OPS')).toBe(false);
    expect(isTemplate('{{ upper }}')).toBe(false);
  });
});
