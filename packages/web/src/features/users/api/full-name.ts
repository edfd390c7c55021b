import type { UserRecord } from '@watchdeck/core';

export const fullName = (u: Pick<UserRecord, 'name'>) => `${u.name.first} ${u.name.last}`.trim();
