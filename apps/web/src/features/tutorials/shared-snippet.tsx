import type { Snippet } from '@portfolio/types/run-code';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';

import { useResource } from '../../ui/use-resource';
import { useCodeBoxStore } from './code-box-store';
import { optimizationLabel, standardLabel } from './run-code-api';
import {
  describeMalformedSnippetId,
  describeSnippetLoadError,
  getSnippet,
  isSnippetId,
} from './snippets-api';

/** The query parameter a share link carries: `/Tutorials?snippet=<id>`. */
export const SNIPPET_PARAM = 'snippet';

type SharedSnippetState =
  | { status: 'none' }
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'opened'; snippet: Snippet }
  | { status: 'kept-edits'; snippet: Snippet };

/** What the page shows for a share link's id before its answer: nothing, an error or waiting. */
function initialState(id: string | null): SharedSnippetState {
  if (id === null) {
    return { status: 'none' };
  }
  if (!isSnippetId(id)) {
    return { status: 'failed', message: describeMalformedSnippetId(id) };
  }
  return { status: 'loading' };
}

interface SharedSnippetProps {
  /** The code box a shared snippet opens in, and its sample. */
  tutorialId: string;
  initialCode: string;
}

/**
 * Opens the snippet a share link names (`?snippet=<id>`) in a tutorial's code box and says what
 * happened: opened, not found, malformed, or kept the person's own edits (with a button to
 * replace them). A failure leaves the box as it was.
 */
export function SharedSnippet({ tutorialId, initialCode }: SharedSnippetProps) {
  const [searchParams] = useSearchParams();
  const id = searchParams.get(SNIPPET_PARAM);
  const openSnippet = useCodeBoxStore((state) => state.openSnippet);
  // asks for a well-formed id's snippet and opens it in the box; the answer is what happened
  const load = useMemo(() => {
    if (id === null || !isSnippetId(id)) {
      return null;
    }
    return async (signal: AbortSignal): Promise<SharedSnippetState> => {
      try {
        const snippet = await getSnippet(id, signal);
        return signal.aborted
          ? { status: 'loading' }
          : { status: openSnippet(tutorialId, initialCode, snippet), snippet };
      } catch (error) {
        return { status: 'failed', message: describeSnippetLoadError(id, error) };
      }
    };
  }, [id, tutorialId, initialCode, openSnippet]);
  // its errors are answers (above): the fallback is never shown
  const { data, setData } = useResource(load, 'Failed to load the shared snippet');
  // another id (or none) starts from its initial state
  const state = data ?? initialState(id);

  switch (state.status) {
    case 'none':
      return null;
    case 'loading':
      return (
        <p className="notice" role="status">
          Loading the shared snippet...
        </p>
      );
    case 'failed':
      return (
        <p className="notice notice--error" role="alert">
          {state.message}
        </p>
      );
    case 'opened':
      return (
        <p className="notice notice--success" role="status">
          {`Showing the shared snippet ${state.snippet.id} (${describeOptions(state.snippet)}).`}
        </p>
      );
    case 'kept-edits':
      return (
        <div className="notice shared-snippet" role="status">
          <p>
            {`You have edited this code, so the shared snippet ${state.snippet.id} did not replace it.`}
          </p>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              openSnippet(tutorialId, initialCode, state.snippet, true);
              setData(() => ({ status: 'opened', snippet: state.snippet }));
            }}
          >
            Replace my code with the shared snippet
          </button>
        </div>
      );
  }
}

function describeOptions(snippet: Snippet): string {
  const parts = [standardLabel(snippet.standard), optimizationLabel(snippet.optimization)];
  if (snippet.stdin.length > 0) {
    parts.push('with standard input');
  }
  return parts.join(', ');
}
