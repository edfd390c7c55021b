// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { FormProvider, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { NumberField, TextField, numberText, requiredText } from '../src/components/forms/index.ts';
import { Modal } from '../src/components/ui/modal.tsx';

afterEach(cleanup);

function AgentForm({ onSubmit }: { onSubmit: (v: { name: string; replicas: number | '' }) => void }) {
  const form = useForm<{ name: string; replicas: number | '' }>({
    mode: 'onTouched',
    defaultValues: { name: '', replicas: '' },
  });
  return (
    <FormProvider {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)}>
        <TextField name="name" label="Name" required />
        <NumberField name="replicas" label="Replicas" required />
        <button type="submit">Save</button>
      </form>
    </FormProvider>
  );
}

describe('form fields', () => {
  it("shows 'This field is required' once a required field is touched", async () => {
    render(<AgentForm onSubmit={() => {}} />);
    expect(screen.queryByText('This field is required')).toBeNull();
    fireEvent.focus(screen.getByLabelText(/Name/));
    fireEvent.blur(screen.getByLabelText(/Name/));
    expect(await screen.findByText('This field is required')).toBeTruthy();
  });

  it("shows 'This field must be a number' for non-numeric input and parses integers", async () => {
    const onSubmit = vi.fn();
    render(<AgentForm onSubmit={onSubmit} />);
    fireEvent.change(screen.getByLabelText(/Name/), { target: { value: 'agent-1' } });
    fireEvent.change(screen.getByLabelText(/Replicas/), { target: { value: 'abc' } });
    fireEvent.blur(screen.getByLabelText(/Replicas/));
    expect(await screen.findByText('This field must be a number')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Replicas/), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0][0]).toEqual({ name: 'agent-1', replicas: 3 });
  });

  it('offers the same messages as zod schemas', () => {
    const schema = z.object({ name: requiredText(), size: numberText() });
    const issues = (v: unknown) => schema.safeParse(v).error?.issues.map((i) => i.message) ?? [];
    expect(issues({ name: '', size: '' })).toEqual(['This field is required', 'This field is required']);
    expect(issues({ name: 'x', size: 'ten' })).toEqual(['This field must be a number']);
    expect(schema.parse({ name: 'x', size: '12' })).toEqual({ name: 'x', size: 12 });
    expect(issues({ name: 'x', size: '-1' })).toEqual(['Must be at least 0']);
  });

  it('works with zodResolver', async () => {
    const schema = z.object({ name: requiredText() });
    function F() {
      const form = useForm({ resolver: zodResolver(schema), defaultValues: { name: '' } });
      return (
        <FormProvider {...form}>
          <form onSubmit={form.handleSubmit(() => {})}>
            <TextField name="name" label="Name" />
            <button type="submit">Go</button>
          </form>
        </FormProvider>
      );
    }
    render(<F />);
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(await screen.findByText('This field is required')).toBeTruthy();
  });
});

describe('Modal', () => {
  it('is a labelled dialog of the requested size that closes with Escape', async () => {
    const onOpenChange = vi.fn();
    render(
      <Modal open onOpenChange={onOpenChange} title="Add agent" size="very-small">
        <input aria-label="first" />
      </Modal>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Add agent' });
    expect(dialog.getAttribute('data-size')).toBe('very-small');
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});
