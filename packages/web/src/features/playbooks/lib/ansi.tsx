import type { CSSProperties, ReactNode } from 'react';

/** The 16 terminal colours (xterm's palette, slightly darkened for a light background). */
const PALETTE = [
  '#000000',
  '#b91c1c',
  '#15803d',
  '#a16207',
  '#1d4ed8',
  '#a21caf',
  '#0e7490',
  '#6b7280',
  '#4b5563',
  '#dc2626',
  '#16a34a',
  '#ca8a04',
  '#2563eb',
  '#c026d3',
  '#0891b2',
  '#111827',
];

function color256(n: number): string {
  if (n < 16) return PALETTE[n]!;
  if (n >= 232) {
    const g = 8 + (n - 232) * 10;
    return `rgb(${g},${g},${g})`;
  }
  const i = n - 16;
  const step = (v: number) => (v === 0 ? 0 : 55 + v * 40);
  return `rgb(${step(Math.floor(i / 36))},${step(Math.floor(i / 6) % 6)},${step(i % 6)})`;
}

interface Style {
  fg?: string;
  bg?: string;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
}

/** Applies one SGR sequence's codes (`1;31`, `38;5;208`, `0`) to a style. */
function applySgr(style: Style, codes: number[]): Style {
  let s = { ...style };
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    if (c === 0) s = {};
    else if (c === 1) s.bold = true;
    else if (c === 2) s.dim = true;
    else if (c === 3) s.italic = true;
    else if (c === 4) s.underline = true;
    else if (c === 22) s.bold = s.dim = false;
    else if (c === 23) s.italic = false;
    else if (c === 24) s.underline = false;
    else if (c >= 30 && c <= 37) s.fg = PALETTE[c - 30];
    else if (c >= 90 && c <= 97) s.fg = PALETTE[c - 90 + 8];
    else if (c >= 40 && c <= 47) s.bg = PALETTE[c - 40];
    else if (c >= 100 && c <= 107) s.bg = PALETTE[c - 100 + 8];
    else if (c === 39) s.fg = undefined;
    else if (c === 49) s.bg = undefined;
    else if ((c === 38 || c === 48) && codes[i + 1] === 5 && codes[i + 2] !== undefined) {
      s[c === 38 ? 'fg' : 'bg'] = color256(codes[i + 2]!);
      i += 2;
    } else if ((c === 38 || c === 48) && codes[i + 1] === 2 && codes[i + 4] !== undefined) {
      s[c === 38 ? 'fg' : 'bg'] = `rgb(${codes[i + 2]},${codes[i + 3]},${codes[i + 4]})`;
      i += 4;
    }
  }
  return s;
}

const css = (s: Style): CSSProperties => ({
  color: s.fg,
  backgroundColor: s.bg,
  fontWeight: s.bold ? 600 : undefined,
  opacity: s.dim ? 0.7 : undefined,
  fontStyle: s.italic ? 'italic' : undefined,
  textDecoration: s.underline ? 'underline' : undefined,
});

/** Text split into runs of one style: SGR sequences become styles, every other escape is dropped. */
export function ansiSegments(text: string): { text: string; style: Style }[] {
  const out: { text: string; style: Style }[] = [];
  // CSI sequences (ESC [ params final) and OSC (ESC ] ... BEL/ST)
  // eslint-disable-next-line no-control-regex -- escape sequences are what this parses
  const re = /\x1b\[([0-9;]*)([A-Za-z])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
  let style: Style = {};
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push({ text: text.slice(last, m.index), style });
    last = m.index + m[0].length;
    if (m[2] === 'm')
      style = applySgr(
        style,
        (m[1] || '0').split(';').map((n) => Number(n) || 0),
      );
  }
  if (last < text.length) out.push({ text: text.slice(last), style });
  return out;
}

const URL_RE = /(https?:\/\/[^\s"'<>]+)/g;

/** Links only for http(s) (seed 002 section 2.16): every other scheme stays text. */
function linkify(text: string, key: string): ReactNode[] {
  return text.split(URL_RE).map((part, i) =>
    i % 2 === 1 ? (
      <a key={`${key}-${i}`} href={part} target="_blank" rel="noreferrer noopener" className="underline">
        {part}
      </a>
    ) : (
      part
    ),
  );
}

/** Terminal output with its ANSI colours rendered and http(s) URLs as links. */
export function AnsiText({ text }: { text: string }) {
  return (
    <>
      {ansiSegments(text).map((seg, i) => {
        const hasStyle = Object.values(seg.style).some((v) => v !== undefined && v !== false);
        const content = linkify(seg.text, String(i));
        return hasStyle ? (
          <span key={i} style={css(seg.style)}>
            {content}
          </span>
        ) : (
          <span key={i}>{content}</span>
        );
      })}
    </>
  );
}
