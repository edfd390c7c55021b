/**
 * @mentions in incident comments (seed 001 section 5: "display name plus user id"). A comment
 * stores each mention as `@[Display Name](<person id>)`; the web shows it as `@Display Name` and
 * the server notifies the person. Names cannot contain `]`, ids are uuids.
 */
export interface Mention {
  name: string;
  id: string;
}

const MENTION = /@\[([^\]\n]+)\]\(([0-9a-fA-F-]{36})\)/g;

export function mentionMarkup(name: string, id: string): string {
  return `@[${name.replace(/[\]\n]/g, ' ').trim()}](${id})`;
}

/** The distinct people mentioned in a comment, in order of first mention. */
export function parseMentions(text: string): Mention[] {
  const seen = new Map<string, Mention>();
  for (const m of text.matchAll(MENTION)) if (!seen.has(m[2])) seen.set(m[2], { name: m[1], id: m[2] });
  return [...seen.values()];
}

/** The comment as plain text and mentions, for rendering. */
export function mentionSegments(text: string): (string | Mention)[] {
  const out: (string | Mention)[] = [];
  let last = 0;
  for (const m of text.matchAll(MENTION)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push({ name: m[1], id: m[2] });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** The comment with each mention as `@Name` (emails, changelog, previews). */
export function mentionsAsText(text: string): string {
  return text.replace(MENTION, (_m, name: string) => `@${name}`);
}
