export * from './job-details.ts';
export { JobDetailsModal } from './job-details-modal.tsx';
export { JobStatusBadge, JOB_STATUSES } from './job-status.tsx';
export { JobHistoryTable, JOB_RESOURCE_TYPES, type JobHistoryRow } from './job-history-table.tsx';
export { useJobHistory } from './use-job-history.ts';
export { ResourceJobHistory } from './resource-job-history.tsx';
