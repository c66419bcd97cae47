import { formatBytes } from '@portfolio/types/format';

import type { MigrationEvent, MigrationOptions, MigrationSummary } from '../lib/storage/migrate.js';

/** Where progress goes: stderr (a bar redrawn in place on a terminal, plain lines otherwise). */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

const BAR_WIDTH = 24;
const REDRAW_MS = 100;

/** "[#######-----]  12/40 files  1.2 MB / 3.4 MB" */
export function progressLine(done: number, files: number, bytes: number, total: number): string {
  const share = total > 0 ? bytes / total : files > 0 ? done / files : 1;
  const filled = Math.round(Math.min(1, share) * BAR_WIDTH);
  const bar = `${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}`;
  return `[${bar}] ${done}/${files} files  ${formatBytes(bytes)} / ${formatBytes(total)}`;
}

/** The plain line of one object done, or undefined for a skip (counted in the summary). */
export function eventLine(event: MigrationEvent): string | undefined {
  if (event.outcome === 'failed') {
    return `failed  ${event.error ?? event.name}`;
  }
  return event.outcome === 'copied'
    ? `copied  ${event.name} (${formatBytes(event.size)})`
    : undefined;
}

/** The migration's progress callbacks, writing to `out`. */
export function migrationProgress(
  out: ProgressStream,
): Required<Pick<MigrationOptions, 'onPlan' | 'onObject'>> & { finish(): void } {
  const state = { files: 0, total: 0, done: 0, bytes: 0, drawnAt: 0 };
  const draw = (force = false) => {
    const now = Date.now();
    if (force || now - state.drawnAt >= REDRAW_MS) {
      state.drawnAt = now;
      out.write(`\r\x1b[2K${progressLine(state.done, state.files, state.bytes, state.total)}`);
    }
  };
  return {
    onPlan(plan) {
      state.files = plan.files;
      state.total = plan.bytes;
      if (out.isTTY) {
        draw(true);
      } else {
        out.write(`${plan.files} files, ${formatBytes(plan.bytes)} to check\n`);
      }
    },
    onObject(event) {
      state.done += 1;
      state.bytes += event.size;
      const line = eventLine(event);
      if (!out.isTTY) {
        if (line) {
          out.write(`${line}\n`);
        }
        return;
      }
      if (event.outcome === 'failed') {
        out.write(`\r\x1b[2K${line ?? ''}\n`);
        draw(true);
        return;
      }
      draw(state.done === state.files);
    },
    finish() {
      if (out.isTTY) {
        draw(true);
        out.write('\n');
      }
    },
  };
}

/** The lines printed at the end: what was copied, skipped and failed. */
export function summaryLines(summary: MigrationSummary, where: string): string[] {
  const lines = [
    `${where}: ${summary.files} files (${formatBytes(summary.bytes)}) checked: ` +
      `${summary.copied} copied (${formatBytes(summary.copiedBytes)}), ` +
      `${summary.skipped} skipped (already there, same size and SHA-256), ` +
      `${summary.failed.length} failed.`,
  ];
  if (summary.failed.length > 0) {
    lines.push(...summary.failed.map((failure) => `  ${failure.error}`));
    lines.push('Run the same command again to copy what failed; what arrived is skipped.');
  }
  return lines;
}
