import {
  type CppStandard,
  DEFAULT_CPP_STANDARD,
  DEFAULT_OPTIMIZATION,
  type OptimizationLevel,
  type Snippet,
} from '@portfolio/types/run-code';
import { create } from 'zustand';

/** What a code box runs and shares: the source, its standard input and the compiler's options. */
export interface CodeBoxSource {
  code: string;
  stdin: string;
  standard: CppStandard;
  optimization: OptimizationLevel;
}

export interface CodeBoxEntry extends CodeBoxSource {
  /** The person changed something since the box showed its sample or a shared snippet. */
  isEdited: boolean;
}

/** A tutorial's box as it first shows: its sample with the default options. */
export function initialEntry(initialCode: string): CodeBoxEntry {
  return {
    code: initialCode,
    stdin: '',
    standard: DEFAULT_CPP_STANDARD,
    optimization: DEFAULT_OPTIMIZATION,
    isEdited: false,
  };
}

/** Whether two sources would run (and share) the same. */
export function isSameSource(a: CodeBoxSource, b: CodeBoxSource): boolean {
  return (
    a.code === b.code &&
    a.stdin === b.stdin &&
    a.standard === b.standard &&
    a.optimization === b.optimization
  );
}

export type OpenSnippetResult = 'opened' | 'kept-edits';

/**
 * What a box holds after a shared snippet arrives: the snippet, unless the person has edited the
 * box (then nothing they typed is replaced, unless `replaceEdits` says they chose so).
 */
export function withSnippet(
  entry: CodeBoxEntry,
  snippet: Snippet,
  replaceEdits: boolean,
): { entry: CodeBoxEntry; result: OpenSnippetResult } {
  const source: CodeBoxSource = {
    code: snippet.code,
    stdin: snippet.stdin,
    standard: snippet.standard,
    optimization: snippet.optimization,
  };
  if (entry.isEdited && !replaceEdits && !isSameSource(entry, source)) {
    return { entry, result: 'kept-edits' };
  }
  return { entry: { ...source, isEdited: false }, result: 'opened' };
}

interface CodeBoxState {
  /** Each tutorial's box by tutorial id, kept while the app runs (leaving the page keeps edits). */
  boxes: Record<string, CodeBoxEntry>;
  /** Changes part of a box's source, as the person typed or chose it. */
  edit: (id: string, initialCode: string, change: Partial<CodeBoxSource>) => void;
  /** Puts a shared snippet in a box; see `withSnippet`. */
  openSnippet: (
    id: string,
    initialCode: string,
    snippet: Snippet,
    replaceEdits?: boolean,
  ) => OpenSnippetResult;
}

export const useCodeBoxStore = create<CodeBoxState>()((set, get) => ({
  boxes: {},
  edit: (id, initialCode, change) =>
    set((state) => {
      const current = state.boxes[id] ?? initialEntry(initialCode);
      const next = { ...current, ...change };
      if (isSameSource(current, next)) {
        return state;
      }
      return { boxes: { ...state.boxes, [id]: { ...next, isEdited: true } } };
    }),
  openSnippet: (id, initialCode, snippet, replaceEdits = false) => {
    const current = get().boxes[id] ?? initialEntry(initialCode);
    const { entry, result } = withSnippet(current, snippet, replaceEdits);
    if (entry !== current) {
      set((state) => ({ boxes: { ...state.boxes, [id]: entry } }));
    }
    return result;
  },
}));

/** One box's current source (its sample until something changes). */
export function useCodeBox(id: string, initialCode: string): CodeBoxEntry {
  const entry = useCodeBoxStore((state) => state.boxes[id]);
  return entry ?? initialEntry(initialCode);
}
