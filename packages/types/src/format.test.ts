import { describe, expect, it } from 'vitest';

import { formatBytes } from './format.js';

describe('formatBytes', () => {
  it('states sizes in decimal units, as the web UI and the CLI both print them', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(999)).toBe('999 bytes');
    expect(formatBytes(1500)).toBe('1.5 KB');
    // a build once shown as 3.1 MB in the UI and 3.0 MB (binary) from the terminal
    expect(formatBytes(3_100_000)).toBe('3.1 MB');
    expect(formatBytes(250_000_000)).toBe('250 MB');
    expect(formatBytes(2_000_000_000)).toBe('2.0 GB');
  });

  it('carries a value that rounds to 1000 into the next unit', () => {
    expect(formatBytes(999_960)).toBe('1.0 MB');
  });
});
