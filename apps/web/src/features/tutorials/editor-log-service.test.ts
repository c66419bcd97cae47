import { afterEach, describe, expect, it, vi } from 'vitest';

import { createEditorLogService, isCancellation } from './editor-log-service';

/** Monaco's CancellationError: an Error named and worded 'Canceled'. */
function cancellation(): Error {
  const error = new Error('Canceled');
  error.name = 'Canceled';
  return error;
}

describe("the editor's log service", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('prints errors and warnings as Monaco does, but never a cancellation', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const logs = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const log = createEditorLogService();
    log.error(cancellation());
    expect(errors).not.toHaveBeenCalled();
    const real = new Error('the worker failed');
    log.error(real, 'detail');
    expect(errors).toHaveBeenCalledWith(real, 'detail');
    log.warn('careful');
    expect(warnings).toHaveBeenCalledWith('careful');
    // info and above, as Monaco's console logger
    log.trace('step');
    log.debug('detail');
    expect(logs).not.toHaveBeenCalled();
    log.info('note');
    expect(logs).toHaveBeenCalledWith('note');
  });

  it('follows its level and says when it changes', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const log = createEditorLogService();
    const seen: number[] = [];
    const subscription = log.onDidChangeLogLevel((level) => seen.push(level));
    log.setLevel(0);
    log.error(new Error('off'));
    expect(errors).not.toHaveBeenCalled();
    subscription.dispose();
    log.setLevel(1);
    expect(seen).toEqual([0]);
    expect(log.getLevel()).toBe(1);
  });

  it('tells a cancellation from other errors', () => {
    expect(isCancellation(cancellation())).toBe(true);
    expect(isCancellation(new Error('Canceled'))).toBe(false);
    expect(isCancellation('Canceled')).toBe(false);
  });
});
