import { snippetOf } from './sender';

describe('snippetOf', () => {
  it('keeps text and turns NUL and bytes that are not UTF-8 into U+FFFD (PostgreSQL text holds no NUL)', () => {
    const s = snippetOf([Buffer.from('ok '), Buffer.from([0x00, 0x1f, 0x8b, 0x00]), Buffer.from(' end')]);
    expect(s).not.toContain('\u0000');
    expect(s.startsWith('ok ')).toBe(true);
    expect(s.endsWith(' end')).toBe(true);
    expect(s).toBe('ok \uFFFD\u001f\uFFFD\uFFFD end');
  });

  it('keeps at most 512 bytes', () => {
    expect(Buffer.byteLength(snippetOf([Buffer.alloc(2000, 'a')]))).toBe(512);
  });
});
