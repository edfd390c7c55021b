// `npm run dev`: the server under tsx watch (restarts on change) and Vite with hot reload.
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'packages/server/src/main.ts', 'serve'], { stdio: 'inherit' }),
  spawn('npx', ['vite', 'packages/web'], { stdio: 'inherit' }),
];
console.log('web with hot reload on http://localhost:5173 (API proxied to the server)');
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children)
  c.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
