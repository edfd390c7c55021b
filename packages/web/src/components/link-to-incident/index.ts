export { AttachAsEvidenceButton, LinkToIncidentDialog, LINK_SUCCESS, LINK_TITLE, MESSAGES } from './link-to-incident-dialog.tsx';
export type { LinkToIncidentDialogProps } from './link-to-incident-dialog.tsx';
export { linkToIncident, type EvidenceTarget, type LinkRequest, type LinkResult } from './api.ts';
