// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { INCIDENT_TYPES, SEVERITIES, parseMentions, type Mention } from '@watchdeck/core';
import { MentionTextarea, toMarkup } from '../src/features/incidents/components/mention-textarea.tsx';
import { currentStep } from '../src/features/incidents/components/responders.tsx';
import { AvatarStack } from '../src/components/ui/avatar.tsx';
import { LinkToIncidentDialog } from '../src/components/link-to-incident/link-to-incident-dialog.tsx';
import { SEVERITY_LABELS, TYPE_LABELS } from '../src/features/incidents/lib/display.ts';
import { renderWithProviders } from './helpers.tsx';

afterEach(cleanup);

const people = [
  { id: 'd3e30000-681b-9ec1-cfd6-e911b8da5998', name: 'Ava Thompson', avatar: null, email: 'ava@example.com' },
  { id: 'd3e30000-4a51-125c-d416-f86002ceb5b9', name: 'Liam Chen', avatar: null, email: 'liam@example.com' },
  { id: 'd3e30000-9fec-d6bd-5eb7-0815487efa5c', name: 'Avery Brooks', avatar: null, email: 'avery@example.com' },
];

function Harness({ onState }: { onState: (text: string, mentions: Mention[]) => void }) {
  const [text, setText] = useState('');
  const [mentions, setMentions] = useState<Mention[]>([]);
  onState(text, mentions);
  return (
    <MentionTextarea
      aria-label="Comment"
      value={text}
      onChange={setText}
      mentions={mentions}
      onMentionsChange={setMentions}
      people={people}
    />
  );
}

describe('comment mentions in the box', () => {
  it('suggests people after @, picks with the keyboard and stores the markup', () => {
    let state: { text: string; mentions: Mention[] } = { text: '', mentions: [] };
    render(<Harness onState={(text, mentions) => (state = { text, mentions })} />);
    const box = screen.getByRole('combobox', { name: 'Comment' });
    fireEvent.change(box, { target: { value: 'ping @av', selectionStart: 8 } });
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'ATAva Thompsonava@example.com',
      'ABAvery Brooksavery@example.com',
    ]);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(state.text).toBe('ping @Avery Brooks ');
    expect(state.mentions).toEqual([{ name: 'Avery Brooks', id: people[2].id }]);
    expect(screen.queryByRole('listbox')).toBeNull();
    const stored = toMarkup(`${state.text}please look`, state.mentions);
    expect(parseMentions(stored)).toEqual([{ name: 'Avery Brooks', id: people[2].id }]);
    expect(stored).toBe(`ping @[Avery Brooks](${people[2].id}) please look`);
  });

  it('drops a mention whose text was edited away, and Escape closes the list', () => {
    expect(toMarkup('no names left', [{ name: 'Ava Thompson', id: people[0].id }])).toBe('no names left');
    render(<Harness onState={() => {}} />);
    const box = screen.getByRole('combobox', { name: 'Comment' });
    fireEvent.change(box, { target: { value: '@L', selectionStart: 2 } });
    expect(screen.getAllByRole('option')).toHaveLength(1);
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    // an email address is not a mention
    fireEvent.change(box, { target: { value: 'mail a@b', selectionStart: 8 } });
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});

describe('responder timeline', () => {
  const created = '2026-11-25T10:00:00Z';
  it('makes the first missing step after a completed one the current one', () => {
    expect(currentStep({ created_at: created, acknowledge_time: null, signoff_time: null, close_time: null })).toBe(1);
    expect(currentStep({ created_at: created, acknowledge_time: created, signoff_time: null, close_time: null })).toBe(
      2,
    );
    expect(
      currentStep({ created_at: created, acknowledge_time: created, signoff_time: created, close_time: created }),
    ).toBe(4);
  });
});

describe('avatar stack', () => {
  it('shows at most 5 faces and names the rest in "+N"', () => {
    const many = Array.from({ length: 7 }, (_, i) => ({ id: String(i), name: `Person ${i}` }));
    render(<AvatarStack people={many} />);
    expect(screen.getAllByRole('img')).toHaveLength(5);
    const more = screen.getByText('+2');
    expect(more.getAttribute('title')).toBe('Person 5, Person 6');
  });
});

describe('Link to Incident', () => {
  it('names types and severities as the Create modal does, not by their stored values', () => {
    renderWithProviders(
      <LinkToIncidentDialog open onOpenChange={() => {}} target={{ type: 'check', check_id: 'c1' }} />,
    );
    const options = (label: string) =>
      [...(screen.getByLabelText(label) as HTMLSelectElement).options].map((o) => [o.value, o.textContent]);
    expect(options('Type')).toEqual([['', 'Select a type'], ...INCIDENT_TYPES.map((t) => [t, TYPE_LABELS[t]])]);
    expect(options('Type')).toContainEqual(['technicalDebt', 'Technical Debt']);
    expect(options('Severity')).toEqual([['', 'Select a severity'], ...SEVERITIES.map((s) => [s, SEVERITY_LABELS[s]])]);
    expect(options('Severity')).toContainEqual(['info', 'Info']);
  });
});
