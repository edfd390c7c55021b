export { AttachAsEvidenceButton } from './link-to-incident-dialog.tsx';
