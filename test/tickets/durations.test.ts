import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/core/durations.ts';

describe('durations: words to seconds (a day is 8 hours, a week 5 days)', () => {
  it.each([
    ['1h 30m', 5400],
    ['45m', 2700],
    ['2d', 57600],
    ['1w', 144000],
    ['1w 2d 3h 4m', 144000 + 57600 + 10800 + 240],
    ['1.5h', 5400],
    [' 2H ', 7200],
    ['1h30m', 5400],
    ['90s', 90],
  ])('%s is %i seconds', (words, seconds) => {
    expect(parseDuration(words)).toBe(seconds);
  });

  it.each(['0m', '0h 0m', '', 'soon', '5', 'h', '1x', '1h 1h', '-1h', '1h and 5m', '99999999w'])('%j is not a duration', (words) => {
    expect(parseDuration(words)).toBeNull();
  });
});

describe('durations: seconds to words', () => {
  it.each([
    [5400, '1h 30m'],
    [28800, '1d'],
    [144000, '1w'],
    [144000 + 28800 + 60, '1w 1d 1m'],
    [30, '30s'],
  ])('%i seconds is %s', (seconds, words) => {
    expect(formatDuration(seconds)).toBe(words);
  });
});
