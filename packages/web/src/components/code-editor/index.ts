export { CodeEditor } from './code-editor.tsx';
export { useJsonSchema } from './use-json-schema.ts';
