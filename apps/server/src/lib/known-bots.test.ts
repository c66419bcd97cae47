import { describe, expect, it } from 'vitest';

import { isKnownBot } from './known-bots.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) ' +
  'Chrome/131.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('isKnownBot', () => {
  it('tells crawlers from browsers, the same on a repeated agent', () => {
    for (let round = 0; round < 2; round++) {
      expect(isKnownBot(GOOGLEBOT)).toBe(true);
      expect(isKnownBot('curl/8.5.0')).toBe(true);
      expect(isKnownBot(CHROME)).toBe(false);
    }
  });

  it('counts no agent as no bot', () => {
    expect(isKnownBot(undefined)).toBe(false);
    expect(isKnownBot('')).toBe(false);
  });

  it('keeps its verdicts right past the cache size and for very long agents', () => {
    for (let i = 0; i < 2500; i++) {
      expect(isKnownBot(`${CHROME} Extra/${i}`)).toBe(false);
    }
    expect(isKnownBot(GOOGLEBOT)).toBe(true);
    expect(isKnownBot(`${GOOGLEBOT}${' x'.repeat(1000)}`)).toBe(true);
    expect(isKnownBot(`${CHROME}${' x'.repeat(1000)}`)).toBe(false);
  });
});
