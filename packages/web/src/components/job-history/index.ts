export * from './job-details.ts';
export { JobDetailsModal, type JobDetailsModalProps } from './job-details-modal.tsx';
export { JobStatusBadge, JOB_STATUSES, type JobStatus } from './job-status.tsx';
export {
  JobHistoryTable,
  JOB_RESOURCE_TYPES,
  resourceLink,
  type JobHistoryRow,
  type JobHistoryTableProps,
} from './job-history-table.tsx';
export { useJobHistory, jobHistoryQueryKey, type JobHistoryQuery } from './use-job-history.ts';
export { ResourceJobHistory } from './resource-job-history.tsx';
