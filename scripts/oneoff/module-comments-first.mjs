// One-off codemod: a module comment written below the imports moves to the top of its file, where
// a reader (and an editor's file preview) looks first. Only a comment block that stands alone
// right after the imports (a blank line below it) is moved: a block attached to the first
// declaration documents that declaration and stays. Idempotent.
//
//   node scripts/oneoff/module-comments-first.mjs          move in place, list the files
//   node scripts/oneoff/module-comments-first.mjs --check  list what would move, exit 1 if any
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const check = process.argv.includes('--check');
const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const files = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.tsx', '*.mjs', '*.js'],
  {
    cwd: root,
    encoding: 'utf8',
  },
)
  .split('\n')
  .filter((f) => f && !f.includes('node_modules/') && existsSync(join(root, f)));

const isComment = (line) => /^(\/\/|\/\*|\s\*)/.test(line);

/** Index of the first line after the import block (blank lines included), or -1 if none. */
function afterImports(lines) {
  let i = 0;
  let sawImport = false;
  let open = false; // inside a multi-line import
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (open) {
      if (/;\s*$/.test(line)) open = false;
      continue;
    }
    if (/^import\b/.test(line) || /^export (\*|\{[^}]*\}|type \{[^}]*\}) from\b/.test(line)) {
      sawImport = true;
      if (!/;\s*$/.test(line)) open = true;
      continue;
    }
    if (line.trim() === '') continue;
    break;
  }
  return sawImport ? i : -1;
}

let moved = 0;
for (const file of files) {
  const abs = join(root, file);
  const text = readFileSync(abs, 'utf8');
  const lines = text.split('\n');
  if (lines[0].startsWith('#!') || isComment(lines[0])) continue; // already has its comment on top
  const start = afterImports(lines);
  if (start < 0 || !isComment(lines[start] ?? '')) continue;
  let end = start;
  while (end < lines.length && isComment(lines[end])) end++;
  if (lines[end] !== '') continue; // attached to a declaration: that declaration's doc
  const block = lines.slice(start, end);
  const rest = [...lines.slice(0, start), ...lines.slice(end + 1)];
  // drop the blank lines the move left at the end of the import block
  const top = [...block, ...rest];
  const next = top.join('\n');
  moved++;
  console.log(file);
  if (!check) writeFileSync(abs, next);
}
console.log(`${moved} module comment(s) ${check ? 'to move' : 'moved'}`);
if (check && moved > 0) process.exit(1);
