import { describe, expect, it } from 'vitest';
import { freeHandle, handleBase, isHandle, newHandle, numberedHandle } from './handles.ts';

describe('account handles', () => {
  it("derive from the e-mail's local part", () => {
    expect(newHandle({ kind: 'human', email: 'alice@x.example', name: 'Alice' }, new Set())).toBe('alice');
    expect(newHandle({ kind: 'human', email: 'Alice.Smith+work@x.example', name: 'A' }, new Set())).toBe(
      'alice-smith-work',
    );
  });

  it('drop what cannot be in a handle and replace separators by a dash', () => {
    expect(handleBase("o'brien", 'user')).toBe('obrien');
    expect(handleBase('José.Núñez', 'user')).toBe('jose-nunez');
    expect(handleBase('__a..b__', 'user')).toBe('a-b');
    expect(handleBase('li_wei', 'user')).toBe('li_wei');
    expect(handleBase('李', 'user')).toBe('user');
    expect(handleBase('x'.repeat(40), 'user')).toBe('x'.repeat(30));
  });

  it('name service accounts after their name', () => {
    expect(newHandle({ kind: 'service', email: null, name: 'CI Bot' }, new Set())).toBe('ci-bot');
    expect(newHandle({ kind: 'service', email: null, name: '🤖' }, new Set())).toBe('service');
  });

  it('add a number on a clash, within 30 characters', () => {
    expect(freeHandle('alice', new Set(['alice']))).toBe('alice2');
    expect(freeHandle('alice', new Set(['alice', 'alice2']))).toBe('alice3');
    expect(numberedHandle('y'.repeat(30), 12)).toBe('y'.repeat(28) + '12');
    expect(numberedHandle('ab-' + 'y'.repeat(27), 1234)).toBe('ab-' + 'y'.repeat(23) + '1234');
  });

  it('are always valid', () => {
    for (const source of ['', '---', 'A B', 'x'.repeat(29) + '-y', '-a', '9lives', '_a_'])
      expect(isHandle(newHandle({ kind: 'human', email: `${source}@x`, name: '' }, new Set()))).toBe(true);
    expect(isHandle('Alice')).toBe(false);
    expect(isHandle('-a')).toBe(false);
    expect(isHandle('a'.repeat(31))).toBe(false);
  });
});
