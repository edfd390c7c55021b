import { describe, expect, it } from 'vitest';
import { mentionMarkup, mentionSegments, mentionsAsText, parseMentions } from '../src/mentions.ts';

const ava = { name: 'Ava Thompson', id: 'd3e30000-681b-9ec1-cfd6-e911b8da5998' };
const liam = { name: 'Liam Chen', id: 'd3e30000-4a51-125c-d416-f86002ceb5b9' };

describe('comment mentions', () => {
  const text = `${mentionMarkup(ava.name, ava.id)} and ${mentionMarkup(liam.name, liam.id)}: please look, ${mentionMarkup(ava.name, ava.id)}`;

  it('writes and reads the markup', () => {
    expect(mentionMarkup(ava.name, ava.id)).toBe(`@[Ava Thompson](${ava.id})`);
    expect(parseMentions(text)).toEqual([ava, liam]);
    expect(parseMentions('mail me at a@b.c, @[broken](not-a-uuid)')).toEqual([]);
  });

  it('splits a comment for rendering and flattens it to text', () => {
    expect(mentionSegments(text)).toEqual([ava, ' and ', liam, ': please look, ', ava]);
    expect(mentionsAsText(text)).toBe('@Ava Thompson and @Liam Chen: please look, @Ava Thompson');
    expect(mentionSegments('no mentions')).toEqual(['no mentions']);
  });

  it('keeps a name from breaking the markup', () => {
    expect(parseMentions(mentionMarkup('Odd ] Name', ava.id))).toEqual([{ name: 'Odd   Name', id: ava.id }]);
  });
});
