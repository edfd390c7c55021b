export { CodeEditor, type CodeEditorProps } from './code-editor.tsx';
export { useJsonSchema } from './use-json-schema.ts';
