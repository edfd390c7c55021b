import { describe, expect, it } from 'vitest';
import { idParam, isUuid, uuidField } from '../src/index.ts';

describe('ids', () => {
  it('isUuid takes the 8-4-4-4-12 hex form in either case, and nothing else', () => {
    expect(isUuid('7e57e57e-0000-4000-8000-000000000000')).toBe(true);
    expect(isUuid('7E57E57E-0000-4000-8000-00000000ABCD')).toBe(true);
    for (const bad of [
      '',
      'not-a-uuid',
      '7e57e57e-0000-4000-8000-00000000000',
      '7e57e57e00004000800000000000000',
      ' 7e57e57e-0000-4000-8000-000000000000',
      '7e57e57e-0000-4000-8000-00000000000g',
      42,
      null,
      undefined,
      ['7e57e57e-0000-4000-8000-000000000000'],
    ])
      expect(isUuid(bad), String(bad)).toBe(false);
  });

  it('idParam refuses a malformed or missing id with a message naming it', () => {
    expect(idParam.parse({ id: '7e57e57e-0000-4000-8000-000000000000' })).toEqual({
      id: '7e57e57e-0000-4000-8000-000000000000',
    });
    for (const input of [{ id: 'x' }, { id: "1' OR 1=1" }, {}, { id: ['a', 'b'] }]) {
      const r = idParam.safeParse(input);
      expect(r.success).toBe(false);
      expect(r.error!.issues[0]).toMatchObject({ path: ['id'], message: 'id must be a UUID' });
    }
  });

  it('uuidField names the field it stands for', () => {
    expect(uuidField('team_id').safeParse('nope').error!.issues[0].message).toBe('team_id must be a UUID');
  });
});
