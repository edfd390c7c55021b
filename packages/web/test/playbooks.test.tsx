// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { validateParam, initialValues } from '../src/components/playbook-run/index.ts';
import { AnsiText, ansiSegments } from '../src/features/playbooks/lib/ansi.tsx';

describe('playbook parameter rules (seed 000 section 5)', () => {
  const text = (properties: object, required = false) => ({ name: 'p', type: 'text', required, properties });
  it('required, dns1123, bytes, millicores, regex, lengths and values', () => {
    expect(validateParam(text({}, true), '')).toBe('This field is required');
    expect(validateParam(text({}), '')).toBeUndefined();
    expect(validateParam(text({ format: 'dns1123' }), 'my-app.v1')).toBeUndefined();
    expect(validateParam(text({ format: 'dns1123' }), 'My_App')).toMatch(/lowercase/);
    expect(validateParam(text({ format: 'dns1123' }), '-app')).toMatch(/lowercase/);
    expect(validateParam(text({ format: 'bytes' }), '512Mi')).toBeUndefined();
    expect(validateParam(text({ format: 'bytes' }), '512MB')).toMatch(/size/);
    expect(validateParam(text({ format: 'millicores' }), '250m')).toBeUndefined();
    expect(validateParam(text({ format: 'millicores' }), '250')).toMatch(/millicores/);
    expect(validateParam(text({ regex: '^[0-9]+$' }), '12a')).toBe('Must match ^[0-9]+$');
    expect(validateParam(text({ minLength: 3 }), 'ab')).toBe('Must be at least 3 characters');
    expect(validateParam(text({ maxLength: 3 }), 'abcd')).toBe('Must be at most 3 characters');
    expect(validateParam(text({ min: 0, max: 50 }), '51')).toBe('Must be at most 50');
    expect(validateParam(text({ min: 1 }), '0')).toBe('Must be at least 1');
    expect(validateParam(text({ min: 1 }), 'x')).toBe('This field must be a number');
  });
  it('checkboxes are the strings true or false and never block', () => {
    const p = [
      { name: 'c', type: 'checkbox', required: true, default: 'true' },
      { name: 'd', type: 'checkbox' },
    ];
    expect(initialValues(p)).toEqual({ c: 'true', d: 'false' });
    expect(validateParam(p[1]!, 'false')).toBeUndefined();
  });
});

describe('ANSI output', () => {
  it('turns SGR colours into styles and drops other escapes', () => {
    const segs = ansiSegments('\x1b[1;32mok\x1b[0m plain \x1b[2Kx \x1b[38;5;196mred');
    expect(segs.map((s) => s.text)).toEqual(['ok', ' plain ', 'x ', 'red']);
    expect(segs[0]!.style).toMatchObject({ bold: true, fg: '#15803d' });
    expect(segs[1]!.style).toEqual({});
    expect(segs[3]!.style.fg).toBe('rgb(255,0,0)');
  });
  it('links only http(s) URLs', () => {
    const { container } = render(
      <AnsiText text={'see https://a.example/x and ftp://b.example/y or javascript:alert(1)'} />,
    );
    const links = [...container.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(['https://a.example/x']);
  });
});
