import { describe, expect, it } from 'vitest';
import { checkValue, type FieldForValues } from './values.ts';

const field = (type: FieldForValues['type'], optionIds: number[] = []): FieldForValues => ({
  id: 1,
  name: 'F',
  type,
  required: false,
  appliesToProject: true,
  optionIds: new Set(optionIds),
});

describe('custom field value checks', () => {
  it('null always clears; "" clears text and [] clears multi_select', () => {
    for (const type of ['text', 'number', 'date', 'boolean', 'url', 'user', 'select', 'multi_select'] as const) {
      expect(checkValue(field(type), null)).toEqual({ value: null });
    }
    expect(checkValue(field('text'), '')).toEqual({ value: null });
    expect(checkValue(field('multi_select', [1]), [])).toEqual({ value: null });
  });

  it('dates are real calendar days in YYYY-MM-DD', () => {
    for (const good of ['2024-02-29', '0000-02-29', '0050-06-15', '0099-12-31', '9999-12-31']) {
      expect(checkValue(field('date'), good), good).toEqual({ value: good });
    }
    for (const bad of [
      '2023-02-29',
      '0001-02-29',
      '0100-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-1-01',
      '26-01-01',
      ' 2026-01-01',
    ]) {
      expect(checkValue(field('date'), bad), bad).toHaveProperty('error');
    }
  });

  it('urls are absolute http(s) with a host', () => {
    expect(checkValue(field('url'), 'https://example.com')).toEqual({ value: 'https://example.com' });
    for (const bad of ['mailto:a@b.c', 'file:///etc/passwd', '/relative', 'http//x']) {
      expect(checkValue(field('url'), bad), bad).toHaveProperty('error');
    }
  });

  it('multi_select keeps distinct option ids of the field, sorted', () => {
    expect(checkValue(field('multi_select', [3, 7, 9]), [9, 3])).toEqual({ value: [3, 9] });
    expect(checkValue(field('multi_select', [3]), [3, 3])).toHaveProperty('error');
    expect(checkValue(field('multi_select', [3]), [4])).toHaveProperty('error');
    expect(checkValue(field('select', [3]), 3.5)).toHaveProperty('error');
  });
});
