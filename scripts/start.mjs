// `npm start`: build the web app when its sources are newer than the build, then serve.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const web = 'packages/web';
const built = join(web, 'dist/index.html');

function newest(dir) {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p) : s.mtimeMs);
  }
  return t;
}

const sourcesTime = Math.max(newest(join(web, 'src')), statSync(join(web, 'index.html')).mtimeMs);
if (!existsSync(built) || statSync(built).mtimeMs < sourcesTime) {
  console.log('building the web app…');
  const r = spawnSync('npm', ['run', 'build', '-w', '@watchdeck/web'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const server = spawn(process.execPath, ['packages/server/bin/watchdeck.mjs', 'serve', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
// Forward signals so the server shuts down gracefully.
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
