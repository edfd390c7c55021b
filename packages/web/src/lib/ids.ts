/**
 * Whether a string is a uuid, the form of every id (DESIGN.md section 2). An id taken from the
 * address (/settings/canaries/not-a-uuid) that is not one names nothing: the page says 'No
 * resources found' without asking the server, which would refuse the value.
 */
export { isUuid } from '@watchdeck/core';
