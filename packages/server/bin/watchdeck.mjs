#!/usr/bin/env node
// Runs the TypeScript sources through tsx so there is no separate server build step.
import { register } from 'tsx/esm/api';
register();
await import('../src/main.ts');
