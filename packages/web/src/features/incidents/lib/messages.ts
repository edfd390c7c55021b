/** Responder messages of seed 001 section 8. */
export const RESPONDER_MESSAGES = {
  added: 'Responder added successfully',
  deleted: 'Responder deleted successfully',
  deleteTitle: 'Delete Responder ?',
  deleteMessage: 'Are you sure you want to delete the responder ?',
  noTypes: 'There were no responders configured for this team',
  invalid: 'Please provide valid value',
} as const;

/** seed 001 section 8: the component list failed to load */
export const COMPONENTS_FAILED = 'Unable to load components!';
