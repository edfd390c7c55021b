import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { FormField, inputClass } from '#web/components/forms/index.ts';
import { Button, type ButtonVariant } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { cn } from '#web/lib/cn.ts';
import { errorMessage } from '#web/lib/http.ts';
import { flatten, labelOf, nodesOf, setPath, submissionBody } from '../api/flow-nodes.ts';
import { isInputNode, type Flow, type InputNode, type UiGroup } from '../api/flow-types.ts';
import { webauthnAnswer } from '../api/webauthn.ts';
import { FlowMessages } from './flow-messages.tsx';

export interface FlowFormProps {
  flow: Flow;
  /** the node groups this form holds; the 'default' group (CSRF token, identifier) always comes along */
  groups: readonly UiGroup[];
  onSubmit: (body: Record<string, unknown>) => Promise<unknown>;
  /** input names rendered elsewhere or not at all */
  exclude?: readonly string[];
  /** a narrower choice of the groups' inputs (the CSRF token always comes along) */
  include?: (node: InputNode) => boolean;
  /** a shorter visible text for a button; the server's label stays its accessible name */
  buttonText?: (node: InputNode) => ReactNode;
  /** the look of a submit button (first one primary by default) */
  buttonVariant?: (node: InputNode, index: number) => ButtonVariant;
  autoFocus?: boolean;
  /** shown between the fields and the buttons */
  children?: ReactNode;
  className?: string;
  'data-testid'?: string;
}

/**
 * A form rendered from the flow's nodes of some groups: inputs with their labels and the
 * server's messages under them, hidden values, and one button per submit node. There is no
 * validation here on purpose: the identity service validates and answers with messages.
 */
export function FlowForm({
  flow,
  groups,
  onSubmit,
  exclude = [],
  include,
  buttonText,
  buttonVariant = (_n, i) => (i === 0 ? 'primary' : 'secondary'),
  autoFocus,
  children,
  className,
  'data-testid': testId,
}: FlowFormProps) {
  const formId = useId();
  const nodes = useMemo(
    () =>
      nodesOf(flow, groups).filter(
        (n): n is InputNode =>
          isInputNode(n) &&
          !exclude.includes(n.attributes.name) &&
          (!include || n.attributes.name === 'csrf_token' || include(n)),
      ),
    [flow, groups, exclude, include],
  );
  const fields = nodes.filter((n) => n.attributes.type !== 'submit');
  const buttons = nodes.filter((n) => n.attributes.type === 'submit');
  // what the server handed us: prefilled values, the CSRF token, hidden options
  const values = useMemo(() => {
    const v: Record<string, unknown> = {};
    for (const n of fields) setPath(v, n.attributes.name, n.attributes.value ?? '');
    return v;
  }, [fields]);
  const form = useForm<Record<string, unknown>>({ values });
  const [busy, setBusy] = useState<string | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);

  const send = async (button: InputNode) => {
    setBusy(`${button.attributes.name}=${button.attributes.value ?? ''}`);
    setLocalError(null);
    try {
      const extra = await webauthnAnswer(flow, button);
      await onSubmit({ ...submissionBody(flatten(form.getValues()), button), ...extra });
    } catch (err) {
      // the security key prompt was cancelled or is not available here
      setLocalError(
        err instanceof Error && err.name === 'NotAllowedError'
          ? 'The security key prompt was cancelled.'
          : errorMessage(err),
      );
    } finally {
      setBusy(null);
    }
  };

  const handle = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    // Enter in a field submits with the first button, like a plain HTML form
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const index = submitter?.dataset.nodeIndex ? Number(submitter.dataset.nodeIndex) : 0;
    const button = buttons[index];
    if (button) void send(button);
  };

  const focusIndex = autoFocus ? fields.findIndex((n) => n.attributes.type !== 'hidden') : -1;
  return (
    <form noValidate onSubmit={handle} className={cn('space-y-4', className)} data-testid={testId}>
      {fields.map((n, index) => {
        const a = n.attributes;
        if (a.type === 'hidden') return <input key={a.name} type="hidden" {...form.register(a.name)} />;
        const id = `${formId}-${a.name}`;
        const error = n.messages
          .filter((m) => m.type === 'error')
          .map((m) => m.text)
          .join(' ');
        return (
          <FormField key={a.name} label={labelOf(n)} htmlFor={id} error={error || undefined} required={a.required}>
            <input
              id={id}
              type={a.type}
              autoComplete={a.autocomplete}
              disabled={a.disabled}
              autoFocus={index === focusIndex}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              className={inputClass(!!error)}
              {...form.register(a.name)}
            />
            <FlowMessages messages={n.messages.filter((m) => m.type !== 'error')} />
          </FormField>
        );
      })}
      {children}
      {localError && <FlowMessages messages={[{ id: 0, type: 'error', text: localError }]} />}
      {buttons.length > 0 && (
        <div className="flex flex-wrap items-center gap-2">
          {buttons.map((n, i) => {
            const key = `${n.attributes.name}=${n.attributes.value ?? ''}`;
            return (
              <Button
                key={key}
                type="submit"
                data-node-index={i}
                name={n.attributes.name}
                value={n.attributes.value}
                variant={buttonVariant(n, i)}
                disabled={!!busy}
                aria-label={buttonText ? labelOf(n) : undefined}
              >
                {busy === key && <Spinner size={14} className="text-current" />}
                {buttonText ? buttonText(n) : labelOf(n)}
              </Button>
            );
          })}
        </div>
      )}
    </form>
  );
}
