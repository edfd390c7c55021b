import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import { readdirSync } from 'node:fs';

// The layout rules of DESIGN.md section 1, checked on every `npm test`. The folder lists are read
// from disk, so a new area or feature is covered the day it is created.
const dirs = (path) =>
  readdirSync(path, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
const SERVER = './packages/server/src';
const WEB = './packages/web/src';
// Engines and neutral infrastructure: used by areas, never the other way round.
const ENGINES = ['db', 'pgrest', 'jobs', 'cel', 'mail', 'sandbox', 'http', 'git'];
const AREAS = dirs(SERVER).filter((d) => !ENGINES.includes(d));
const FEATURES = dirs(`${WEB}/features`);

const CLIMB = {
  regex: '^(\\.\\./){2,}|^(\\.\\./)+packages/',
  message: "Import by the package's subpath (#server/..., #web/...) instead of climbing folders.",
};

const boundaryZones = [
  ...FEATURES.map((f) => ({
    target: `${WEB}/features/${f}`,
    from: `${WEB}/features`,
    except: [`./${f}`],
    message: 'Features never import each other: move what two features share to components/ or lib/.',
  })),
  {
    target: [`${WEB}/components`, `${WEB}/lib`],
    from: [`${WEB}/features`, `${WEB}/app`],
    message: 'components/ and lib/ are shared: they import no feature and nothing of app/.',
  },
  {
    target: ENGINES.map((e) => `${SERVER}/${e}`),
    from: [...AREAS.map((a) => `${SERVER}/${a}`), `${SERVER}/app.ts`, `${SERVER}/main.ts`],
    message: `Engines (${ENGINES.join(', ')}) import no area: the area registers with the engine.`,
  },
  ...AREAS.flatMap((a) =>
    AREAS.filter((b) => b !== a).map((b) => ({
      target: `${SERVER}/${a}`,
      from: `${SERVER}/${b}`,
      except: ['./index.ts'],
      message: `An area imports another only through its index.ts: import from '${b}/index.ts'.`,
    })),
  ),
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.e2e/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: boundaryZones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // Arrows point one way: web -> core, server -> core. Features never import each other.
  // Within a package, a module more than one folder away is imported by its subpath
  // (`#server/...`, `#web/...`: package.json "imports"), never by climbing `../../`.
  {
    files: ['packages/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@watchdeck/server*',
                '@watchdeck/web*',
                '#server/*',
                '#web/*',
                'node:*',
                '**/server/**',
                '**/web/**',
              ],
            },
            CLIMB,
          ],
        },
      ],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@watchdeck/server*', '#server/*', '**/server/src/**'] }, CLIMB] },
      ],
    },
  },
  {
    files: ['packages/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@watchdeck/web*', '#web/*', '**/web/src/**'] }, CLIMB] },
      ],
    },
  },
  {
    files: ['bench/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIMB] }] },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        fetch: 'readonly',
      },
    },
  },
);
