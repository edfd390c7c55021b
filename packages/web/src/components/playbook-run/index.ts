export { PlaybooksDropdown } from './playbooks-dropdown.tsx';
export { RunPlaybookDialog } from './run-dialog.tsx';
export type { PlaybookSummary } from './types.ts';
export { validateParam, initialValues } from './validation.ts';
