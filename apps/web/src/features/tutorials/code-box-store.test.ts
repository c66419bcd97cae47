import type { Snippet } from '@portfolio/types/run-code';
import { beforeEach, describe, expect, it } from 'vitest';

import { initialEntry, isSameSource, useCodeBoxStore, withSnippet } from './code-box-store';

const SAMPLE = 'int main() {}\n';
const SNIPPET: Snippet = {
  id: 'abcdefghijkl',
  code: 'int main() { return 1; }\n',
  stdin: '42\n',
  standard: 'c++20',
  optimization: 'O0',
  url: '/Tutorials?snippet=abcdefghijkl',
  createdAt: '2025-01-01T00:00:00.000Z',
};

beforeEach(() => {
  useCodeBoxStore.setState({ boxes: {} });
});

describe('the code box store', () => {
  it('starts from the sample with C++17 and -O2, and keeps edits by tutorial', () => {
    expect(initialEntry(SAMPLE)).toEqual({
      code: SAMPLE,
      stdin: '',
      standard: 'c++17',
      optimization: 'O2',
      isEdited: false,
    });
    const { edit } = useCodeBoxStore.getState();
    edit('a', SAMPLE, { stdin: 'hello' });
    edit('a', SAMPLE, { standard: 'c++23' });
    expect(useCodeBoxStore.getState().boxes).toEqual({
      a: { ...initialEntry(SAMPLE), stdin: 'hello', standard: 'c++23', isEdited: true },
    });
  });

  it('counts a change that changes nothing as no edit', () => {
    useCodeBoxStore.getState().edit('a', SAMPLE, { code: SAMPLE });
    expect(useCodeBoxStore.getState().boxes).toEqual({});
  });

  it('opens a shared snippet in an untouched box, with its input and options', () => {
    expect(useCodeBoxStore.getState().openSnippet('a', SAMPLE, SNIPPET)).toBe('opened');
    expect(useCodeBoxStore.getState().boxes.a).toEqual({
      code: SNIPPET.code,
      stdin: '42\n',
      standard: 'c++20',
      optimization: 'O0',
      isEdited: false,
    });
  });

  it("never replaces the person's edits unless they ask", () => {
    const { edit, openSnippet } = useCodeBoxStore.getState();
    edit('a', SAMPLE, { code: 'mine' });
    expect(openSnippet('a', SAMPLE, SNIPPET)).toBe('kept-edits');
    expect(useCodeBoxStore.getState().boxes.a?.code).toBe('mine');
    expect(openSnippet('a', SAMPLE, SNIPPET, true)).toBe('opened');
    expect(useCodeBoxStore.getState().boxes.a?.code).toBe(SNIPPET.code);
  });

  it('treats edits that already equal the snippet as opened', () => {
    const edited = { ...initialEntry(SAMPLE), ...SNIPPET, isEdited: true };
    expect(withSnippet(edited, SNIPPET, false).result).toBe('opened');
    expect(isSameSource(edited, { ...edited, stdin: '' })).toBe(false);
  });
});
