export { AttachAsEvidenceButton, LinkToIncidentDialog } from './link-to-incident-dialog.tsx';
