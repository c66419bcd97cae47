import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { HttpError } from '../lib/http';
import { useResource } from './use-resource';

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
});
