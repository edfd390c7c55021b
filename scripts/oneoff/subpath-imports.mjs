// One-off codemod: relative imports that climb more than one folder (`../../lib/x.ts`), or that
// reach into another package's sources, become subpath imports (`#web/lib/x.ts`). Why: a path that
// says where a module lives survives moving the importer, reads the same in every file, and the
// boundary lint names the area at a glance. The prefixes come from the `imports` field of the
// package.json whose scope the importing file is in (Node's rule), so a new prefix needs no change
// here. Idempotent: run it again after a merge to catch imports written the old way.
//
//   node scripts/oneoff/subpath-imports.mjs          rewrite in place, print a count per file
//   node scripts/oneoff/subpath-imports.mjs --check  list what would change, exit 1 if anything
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

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

// package scope (directory of a package.json) -> [[absolute target dir, '#prefix/'], ...]
const scopes = new Map();
function scopeOf(file) {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const pj = join(dir, 'package.json');
    if (existsSync(pj)) {
      if (!scopes.has(dir)) {
        const imports = JSON.parse(readFileSync(pj, 'utf8')).imports ?? {};
        const maps = Object.entries(imports)
          .filter(([key, target]) => key.endsWith('/*') && typeof target === 'string' && target.endsWith('/*'))
          .map(([key, target]) => [resolve(dir, target.slice(0, -1)), key.slice(0, -1)]);
        // the deepest target wins when two overlap
        scopes.set(
          dir,
          maps.sort((a, b) => b[0].length - a[0].length),
        );
      }
      return { dir, maps: scopes.get(dir) };
    }
    if (dir === root || dir === dirname(dir)) return { dir, maps: [] };
  }
}

const packageOf = (path) => {
  const m = relative(root, path).split(sep);
  return m[0] === 'packages' ? m.slice(0, 2).join('/') : '.';
};

// `from '...'`, `import '...'`, `import('...')`, `export ... from '...'`
const SPECIFIER = /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.\/[^'"]+)\2/g;

let changed = 0;
for (const file of files) {
  const abs = join(root, file);
  const source = readFileSync(abs, 'utf8');
  const { maps } = scopeOf(abs);
  if (maps.length === 0) continue;
  let count = 0;
  const next = source.replace(SPECIFIER, (whole, lead, quote, spec) => {
    const target = resolve(dirname(abs), spec);
    const climbsTwo = spec.startsWith('../../');
    const otherPackage = packageOf(target) !== packageOf(abs);
    if (!climbsTwo && !otherPackage) return whole;
    const hit = maps.find(([dir]) => target.startsWith(dir + sep));
    if (!hit) return whole;
    count++;
    return `${lead}${quote}${hit[1]}${relative(hit[0], target).split(sep).join('/')}${quote}`;
  });
  if (count === 0) continue;
  changed += count;
  console.log(`${file}: ${count}`);
  if (!check) writeFileSync(abs, next);
}
console.log(`${changed} import(s) ${check ? 'to rewrite' : 'rewritten'}`);
if (check && changed > 0) process.exit(1);
