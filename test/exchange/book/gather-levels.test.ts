import { describe, expect, it } from 'vitest';
import { gatherLevels } from '../../../framework/exchange/book/gather-levels.js';

describe('gatherLevels', () => {
  it('ORs the lengths of every price and quantity text, 0 for no level', () => {
    expect(gatherLevels([])).toBe(0);
    expect(gatherLevels([['1', '22'], ['1', '1'], ['1', '1234']])).toBe(1 | 2 | 4);
    expect(gatherLevels([['12345678', '1']])).toBe(8 | 1);
    expect(gatherLevels([['2683.81', '0.0000']])).toBe(7 | 6);
  });
});
