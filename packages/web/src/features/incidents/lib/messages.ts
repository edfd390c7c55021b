/** Responder messages of seed 001 section 8. */
export const RESPONDER_MESSAGES = {
  added: 'Responder added successfully',
  deleted: 'Responder deleted successfully',
  deleteTitle: 'Delete Responder ?',
  deleteMessage: 'Are you sure you want to delete the responder ?',
  noTypes: 'There were no responders configured for this team',
  invalid: 'Please provide valid value',
} as const;

/** A ticket-system responder type without any connection to send it through (jira, ms_planner). */
export const noConnectionMessage = (label: string) => `No ${label} connection is configured.`;
/** Where connections are added (the settings screen's route). */
export const CONNECTIONS_ROUTE = '/settings/connections';

/** seed 001 section 8: the component list failed to load */
export const COMPONENTS_FAILED = 'Unable to load components!';
