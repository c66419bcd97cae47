import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { HttpError } from '../lib/http';
import { nullIfNotFound, pause, useResource } from './use-resource';

/** A load whose answers the test gives, recording the signals it was called with. */
function controlledLoad() {
  const signals: AbortSignal[] = [];
  const pending: Array<{ resolve: (value: string) => void; reject: (error: unknown) => void }> = [];
  const load = (signal: AbortSignal) => {
    signals.push(signal);
    return new Promise<string>((resolve, reject) => pending.push({ resolve, reject }));
  };
  return { load, signals, pending };
}

describe('useResource', () => {
  it('is loading until the answer, then holds it', async () => {
    const { load, pending } = controlledLoad();
    const { result } = renderHook(() => useResource(load, 'Failed to load'));
    expect(result.current.isLoading).toBe(true);
    expect(result.current.data).toBeUndefined();
    act(() => pending[0]?.resolve('first'));
    await waitFor(() => expect(result.current.data).toBe('first'));
    expect(result.current.isLoading).toBe(false);
    expect(result.current.error).toBeNull();
  });

  it("shows the server's message of a failure, else the fallback", async () => {
    const { load, pending } = controlledLoad();
    const { result } = renderHook(() => useResource(load, 'Failed to load'));
    act(() => pending[0]?.reject(new HttpError({ status: 403, code: 'FORBIDDEN', message: 'No' })));
    await waitFor(() => expect(result.current.error).toBe('No'));

    const other = controlledLoad();
    const second = renderHook(() => useResource(other.load, 'Failed to load'));
    act(() => other.pending[0]?.reject(new Error('network down')));
    await waitFor(() => expect(second.result.current.error).toBe('Failed to load'));
  });

  it('aborts the request on unmount and when the load changes, and loads the new one', async () => {
    const first = controlledLoad();
    const second = controlledLoad();
    const { result, rerender, unmount } = renderHook(
      ({ load }) => useResource(load, 'Failed to load'),
      { initialProps: { load: first.load } },
    );
    rerender({ load: second.load });
    expect(first.signals[0]?.aborted).toBe(true);
    // the old answer arriving late is not shown as the new resource's
    act(() => first.pending[0]?.resolve('stale'));
    act(() => second.pending[0]?.resolve('fresh'));
    await waitFor(() => expect(result.current.data).toBe('fresh'));
    unmount();
    expect(second.signals[0]?.aborted).toBe(true);
  });

  it('reloads on demand and records a failed reload as the error, keeping the data', async () => {
    let answer: Promise<string> = Promise.resolve('one');
    const load = () => answer;
    const { result } = renderHook(() => useResource(load, 'Failed to load'));
    await waitFor(() => expect(result.current.data).toBe('one'));
    answer = Promise.resolve('two');
    await act(() => result.current.reload());
    expect(result.current.data).toBe('two');
    answer = Promise.reject(new Error('down'));
    await act(() => result.current.reload());
    expect(result.current.error).toBe('Failed to load');
    expect(result.current.data).toBe('two');
  });

  it('loads nothing for a null load', () => {
    const { result } = renderHook(() => useResource<string>(null, 'Failed to load'));
    expect(result.current.isLoading).toBe(false);
    expect(result.current.data).toBeUndefined();
  });

  it('lets only the newest request land: a reload aborts the one before, a slower old answer is dropped', async () => {
    const { load, signals, pending } = controlledLoad();
    const { result } = renderHook(() => useResource(load, 'Failed to load'));
    act(() => pending[0]?.resolve('first'));
    await waitFor(() => expect(result.current.data).toBe('first'));

    let firstReload: Promise<void> | undefined;
    act(() => {
      firstReload = result.current.reload();
    });
    let secondReload: Promise<void> | undefined;
    act(() => {
      secondReload = result.current.reload();
    });
    expect(signals[1]?.aborted).toBe(true);
    await act(async () => {
      pending[2]?.resolve('newest');
      await secondReload;
      pending[1]?.resolve('older');
      await firstReload;
    });
    expect(result.current.data).toBe('newest');
  });

  it('drops a reload that is still in flight when the load changes', async () => {
    const first = controlledLoad();
    const second = controlledLoad();
    const { result, rerender } = renderHook(({ load }) => useResource(load, 'Failed to load'), {
      initialProps: { load: first.load },
    });
    act(() => first.pending[0]?.resolve('one'));
    await waitFor(() => expect(result.current.data).toBe('one'));
    let reload: Promise<void> | undefined;
    act(() => {
      reload = result.current.reload();
    });
    rerender({ load: second.load });
    expect(first.signals[1]?.aborted).toBe(true);
    await act(async () => {
      second.pending[0]?.resolve('two');
      first.pending[1]?.resolve('stale');
      await reload;
    });
    expect(result.current.data).toBe('two');
    expect(result.current.isLoading).toBe(false);
  });

  it('loads again when reloadKey changes, aborting the request before; kept, the last answer stays meanwhile', async () => {
    const { load, signals, pending } = controlledLoad();
    const { result, rerender } = renderHook(
      ({ version }) =>
        useResource(load, 'Failed to load', { reloadKey: version, isKeptWhileLoading: true }),
      { initialProps: { version: 1 } },
    );
    act(() => pending[0]?.resolve('version 1'));
    await waitFor(() => expect(result.current.data).toBe('version 1'));

    rerender({ version: 2 });
    expect(signals).toHaveLength(2);
    expect(result.current.isLoading).toBe(true);
    expect(result.current.data).toBe('version 1');
    rerender({ version: 3 });
    expect(signals[1]?.aborted).toBe(true);
    act(() => pending[2]?.resolve('version 3'));
    await waitFor(() => expect(result.current.data).toBe('version 3'));
    expect(result.current.isLoading).toBe(false);
  });

  it('shows initialData at once without asking, and asks for the next resource', async () => {
    const first = controlledLoad();
    const second = controlledLoad();
    const { result, rerender } = renderHook(
      ({ load }) => useResource(load, 'Failed to load', { initialData: 'written into the page' }),
      { initialProps: { load: first.load } },
    );
    expect(result.current.data).toBe('written into the page');
    expect(result.current.isLoading).toBe(false);
    expect(first.signals).toHaveLength(0);

    rerender({ load: second.load });
    expect(result.current.data).toBeUndefined();
    act(() => second.pending[0]?.resolve('asked'));
    await waitFor(() => expect(result.current.data).toBe('asked'));
    expect(first.signals).toHaveLength(0);
  });

  describe('with pollMs', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('loads again on the interval, keeping the last answer through a failed poll, and stops on unmount', async () => {
      vi.useFakeTimers();
      const answers = ['one', new Error('down'), 'three'];
      let calls = 0;
      const load = () => {
        const answer = answers[calls] ?? 'later';
        calls += 1;
        return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
      };
      const { result, unmount } = renderHook(() =>
        useResource(load, 'Failed to load', { pollMs: 1000 }),
      );
      await act(() => vi.advanceTimersByTimeAsync(0));
      expect(result.current.data).toBe('one');

      await act(() => vi.advanceTimersByTimeAsync(999));
      expect(calls).toBe(1);
      await act(() => vi.advanceTimersByTimeAsync(1));
      expect(calls).toBe(2);
      expect(result.current.error).toBe('Failed to load');
      expect(result.current.data).toBe('one');
      expect(result.current.isLoading).toBe(false);

      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(result.current.data).toBe('three');
      expect(result.current.error).toBeNull();
      unmount();
      await act(() => vi.advanceTimersByTimeAsync(5000));
      expect(calls).toBe(3);
    });
  });
});

describe('nullIfNotFound', () => {
  it("answers null for the server's NOT_FOUND and passes any other failure on", async () => {
    const missing = new HttpError({ status: 404, code: 'NOT_FOUND', message: 'Not found' });
    await expect(nullIfNotFound(Promise.reject(missing))).resolves.toBeNull();
    await expect(nullIfNotFound(Promise.resolve('there'))).resolves.toBe('there');
    const refused = new HttpError({ status: 403, code: 'FORBIDDEN', message: 'No' });
    await expect(nullIfNotFound(Promise.reject(refused))).rejects.toBe(refused);
  });
});

describe('pause', () => {
  it('waits, and rejects at once when aborted so nothing is asked', async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      let isDone = false;
      void pause(1500, controller.signal).then(() => {
        isDone = true;
      });
      await vi.advanceTimersByTimeAsync(1499);
      expect(isDone).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(isDone).toBe(true);

      const aborted = new AbortController();
      const waiting = pause(1500, aborted.signal);
      aborted.abort();
      await expect(waiting).rejects.toThrow('Aborted');
    } finally {
      vi.useRealTimers();
    }
  });
});
