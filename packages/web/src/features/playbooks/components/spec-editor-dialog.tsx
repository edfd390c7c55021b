import { useState } from 'react';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { CodeEditor } from '#web/components/code-editor/index.ts';
import { FIELD_REQUIRED_MESSAGE, FormField, inputClass } from '#web/components/forms/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { errorMessage } from '#web/lib/http.ts';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { useSavePlaybook } from '../api/save-playbook.ts';
import { usePlaybookSchema } from '../api/use-playbook-schema.ts';
import { isSynced, type Playbook } from '../api/types.ts';

/** What a new spec starts from: one harmless action, offered on every HTTP check. */
const NEW_SPEC = `description: ""
category: ""
checks:
  - types: [http]
parameters: []
actions:
  - name: echo
    exec:
      script: echo hello
`;

/** The spec as edited: the title has its own field, so it is left out of the YAML. */
function specText(p: Playbook | null): string {
  if (!p?.spec) return NEW_SPEC;
  const { title: _title, ...rest } = p.spec as Record<string, unknown>;
  return toYaml(rest);
}

/**
 * Add or edit a playbook spec (seed 002 section 2.16): Title and Spec (YAML) are required. The
 * editor validates and completes with the published JSON schema; the server checks again and its
 * message (the field it refuses) shows under the editor.
 */
export function SpecEditorDialog({
  playbook,
  open,
  onOpenChange,
}: {
  playbook: Playbook | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const schema = usePlaybookSchema();
  const save = useSavePlaybook();
  const [title, setTitle] = useState(playbook?.title ?? '');
  const [text, setText] = useState(() => specText(playbook));
  const [touched, setTouched] = useState({ title: false, spec: false });
  const [problem, setProblem] = useState<string | undefined>();
  const editing = !!playbook;
  // a synced playbook is changed in its files: shown, never saved (the server refuses it too)
  const readOnly = !!playbook && isSynced(playbook);

  const titleError = touched.title && !title.trim() ? FIELD_REQUIRED_MESSAGE : undefined;
  let parsed: unknown;
  let yamlError: string | undefined;
  try {
    parsed = text.trim() ? parseYaml(text) : undefined;
  } catch (err) {
    yamlError = (err as Error).message.split('\n')[0];
  }
  const specError =
    touched.spec && !text.trim()
      ? FIELD_REQUIRED_MESSAGE
      : (yamlError ??
        (parsed !== undefined && (typeof parsed !== 'object' || Array.isArray(parsed) || parsed === null)
          ? 'The spec must be a YAML mapping'
          : undefined));

  const submit = async () => {
    setTouched({ title: true, spec: true });
    setProblem(undefined);
    if (!title.trim() || !text.trim() || specError || !parsed) return;
    try {
      await save.mutateAsync({ id: playbook?.id, title: title.trim(), spec: parsed as Record<string, unknown> });
      toastSuccess(editing ? 'Playbook Spec updated successfully' : 'Playbook Spec created successfully');
      onOpenChange(false);
    } catch (err) {
      const message = errorMessage(err);
      setProblem(message);
      // the seed's words, whole, so they can be found (seed 002 section 8)
      toastError(editing ? `Unable to update playbook spec: ${message}` : `Unable to create playbook spec: ${message}`);
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={
        readOnly
          ? `${playbook?.title || playbook?.name} (read-only)`
          : editing
            ? `Edit ${playbook.title || playbook.name}`
            : 'Add Playbook'
      }
      size="large"
      dismissOnOutsideClick={false}
      footer={
        readOnly ? (
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Close
          </Button>
        ) : (
          <>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button variant="primary" form="playbook-spec-form" type="submit" disabled={save.isPending}>
              {save.isPending && <Spinner size={14} className="text-white" />}
              {editing ? 'Update' : 'Save'}
            </Button>
          </>
        )
      }
    >
      <form
        id="playbook-spec-form"
        className="flex flex-col gap-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!readOnly) void submit();
        }}
      >
        {readOnly && (
          <p role="note" className="rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm text-indigo-900">
            Synced from {playbook?.source}
            {playbook?.source_path ? (
              <>
                {' '}
                file <code className="text-xs">{playbook?.source_path}</code>
              </>
            ) : null}
            : it is changed in its source, not here.
          </p>
        )}
        <FormField label="Title" htmlFor="playbook-title" required error={titleError}>
          <input
            id="playbook-title"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            onBlur={() => setTouched((t) => ({ ...t, title: true }))}
            disabled={readOnly}
            aria-invalid={!!titleError || undefined}
            className={inputClass(!!titleError)}
          />
        </FormField>
        <FormField
          label="Spec"
          htmlFor="playbook-spec"
          required
          error={specError ?? problem}
          hint={
            readOnly
              ? undefined
              : 'YAML. Ctrl-Space completes fields from the playbook schema; what it refuses is underlined.'
          }
        >
          <CodeEditor
            id="playbook-spec"
            aria-label="Spec"
            language="yaml"
            value={text}
            onChange={(v) => {
              setText(v);
              setProblem(undefined);
            }}
            onBlur={() => setTouched((t) => ({ ...t, spec: true }))}
            schema={schema.data}
            readOnly={readOnly}
            invalid={!!(specError ?? problem)}
            height="24rem"
          />
        </FormField>
      </form>
    </Modal>
  );
}
