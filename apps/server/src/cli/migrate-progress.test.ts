import { describe, expect, it } from 'vitest';

import { migrationProgress, progressLine } from './migrate-progress.js';

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, out: { isTTY, write: (text: string) => writes.push(text) } };
}

describe('storage:migrate progress', () => {
  it('draws a bar of bytes with files done/total', () => {
    expect(progressLine(0, 4, 0, 2000)).toBe(`[${'-'.repeat(24)}] 0/4 files  0 bytes / 2.0 KB`);
    expect(progressLine(2, 4, 1000, 2000)).toBe(
      `[${'#'.repeat(12)}${'-'.repeat(12)}] 2/4 files  1.0 KB / 2.0 KB`,
    );
  });

  it('redraws one line on a terminal, with failures on lines of their own', () => {
    const { writes, out } = stream(true);
    const progress = migrationProgress(out);
    progress.onPlan({ files: 2, bytes: 2000 });
    progress.onObject({ name: 'games/a', size: 1000, outcome: 'failed', error: 'games/a: gone' });
    progress.onObject({ name: 'games/b', size: 1000, outcome: 'skipped' });
    progress.finish();
    const clear = '\r\x1b[2K';
    expect(writes[0]).toBe(`${clear}[${'-'.repeat(24)}] 0/2 files  0 bytes / 2.0 KB`);
    expect(writes).toContain(`${clear}failed  games/a: gone\n`);
    expect(writes.at(-2)).toBe(`${clear}[${'#'.repeat(24)}] 2/2 files  2.0 KB / 2.0 KB`);
    expect(writes.at(-1)).toBe('\n');
  });

  it('writes plain lines elsewhere: the plan, each copy and failure, no skips', () => {
    const { writes, out } = stream(false);
    const progress = migrationProgress(out);
    progress.onPlan({ files: 3, bytes: 1500 });
    progress.onObject({ name: 'media/x.png', size: 1500, outcome: 'copied' });
    progress.onObject({ name: 'media/y.png', size: 0, outcome: 'skipped' });
    progress.onObject({
      name: 'media/z.png',
      size: 0,
      outcome: 'failed',
      error: 'media/z.png: no',
    });
    progress.finish();
    expect(writes).toEqual([
      '3 files, 1.5 KB to check\n',
      'copied  media/x.png (1.5 KB)\n',
      'failed  media/z.png: no\n',
    ]);
  });
});
