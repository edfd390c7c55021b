/** The connection messages of seed 002 section 8. */
export const CONNECTION_MESSAGES = {
  added: 'Connection added successfully',
  updated: 'Connection updated successfully',
  deleted: 'Connection deleted successfully',
  testOk: 'Connection successful',
  testFailed: 'Testing connection failed!',
  testNotImplemented: 'We currently do not support testing this connection type',
} as const;
