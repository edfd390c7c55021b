import { useMemo } from 'react';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { json } from '@codemirror/lang-json';
import { yaml } from '@codemirror/lang-yaml';
import { jsonSchema } from 'codemirror-json-schema';
import { yamlSchema } from 'codemirror-json-schema/yaml';
import type { JSONSchema7 } from 'json-schema';
import { cn } from '#web/lib/cn.ts';

export interface CodeEditorProps {
  value: string;
  onChange?: (value: string) => void;
  onBlur?: () => void;
  language: 'yaml' | 'json';
  /**
   * A JSON schema: the editor then underlines what the schema rejects, completes property names
   * and enum values (Ctrl-Space) and explains properties on hover.
   */
  schema?: object;
  readOnly?: boolean;
  /** CSS height of the editing area, e.g. '16rem'. */
  height?: string;
  id?: string;
  'aria-label'?: string;
  invalid?: boolean;
  className?: string;
}

/** CodeMirror 6 for YAML and JSON documents (DESIGN section 7: the one code editor). */
export default function CodeEditorImpl({
  value,
  onChange,
  onBlur,
  language,
  schema,
  readOnly,
  height = '16rem',
  id,
  'aria-label': ariaLabel,
  invalid,
  className,
}: CodeEditorProps) {
  const extensions = useMemo(() => {
    const s = schema as JSONSchema7 | undefined;
    const lang = language === 'yaml' ? (s ? yamlSchema(s) : [yaml()]) : s ? jsonSchema(s) : [json()];
    return [
      ...lang,
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({
        ...(id ? { id } : {}),
        ...(ariaLabel ? { 'aria-label': ariaLabel } : {}),
        ...(invalid ? { 'aria-invalid': 'true' } : {}),
      }),
      EditorView.domEventHandlers({ blur: () => void onBlur?.() }),
    ];
  }, [language, schema, id, ariaLabel, invalid, onBlur]);
  return (
    <div
      className={cn(
        'overflow-hidden rounded-md border text-sm',
        invalid ? 'border-red-400' : 'border-gray-300 focus-within:border-blue-500',
        className,
      )}
      data-language={language}
    >
      <CodeMirror
        value={value}
        onChange={onChange}
        extensions={extensions}
        readOnly={readOnly}
        editable={!readOnly}
        height={height}
        basicSetup={{ foldGutter: true, lineNumbers: true, highlightActiveLine: !readOnly }}
      />
    </div>
  );
}
