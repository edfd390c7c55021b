export { PlaybooksDropdown } from './playbooks-dropdown.tsx';
export { RunPlaybookDialog, NO_PARAMETERS_MESSAGE, SELECT_RESOURCE_MESSAGE } from './run-dialog.tsx';
export type { PlaybookParam, PlaybookResource, PlaybookSummary } from './types.ts';
export { validateParam, validateParams, initialValues } from './validation.ts';
