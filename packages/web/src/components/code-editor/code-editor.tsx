import { lazy, Suspense } from 'react';
import type { CodeEditorProps } from './code-editor-impl.tsx';

export type { CodeEditorProps } from './code-editor-impl.tsx';

// CodeMirror with its YAML/JSON-schema support is the largest dependency of the app: it loads
// when an editor first shows, not with the screen (lists stay light).
const Impl = lazy(() => import('./code-editor-impl.tsx'));

/** CodeMirror 6 for YAML and JSON documents (DESIGN section 7: the one code editor). */
export function CodeEditor(props: CodeEditorProps) {
  return (
    <Suspense
      fallback={
        <div
          className="animate-pulse rounded-md border border-gray-200 bg-gray-50"
          style={{ height: props.height ?? '16rem' }}
          aria-busy="true"
          aria-label={props['aria-label']}
        />
      }
    >
      <Impl {...props} />
    </Suspense>
  );
}
