import { type ShareSnippetRequest, Snippet, SNIPPET_ID_PATTERN } from '@portfolio/types/run-code';

import { hasErrorCode, http } from '../../lib/http';
import { describeRunError } from './run-code-api';

/** Stores a snippet (content-addressed: sharing the same one again answers the same id). */
export function shareSnippet(request: ShareSnippetRequest): Promise<Snippet> {
  return http.post('/api/snippets', request, Snippet);
}

/** A shared snippet by id; rejects with a 404 HttpError when there is none. */
export function getSnippet(id: string, signal?: AbortSignal): Promise<Snippet> {
  return http.get(`/api/snippets/${encodeURIComponent(id)}`, Snippet, signal);
}

/** Whether a share link's id could name a snippet at all (so a typo costs no request). */
export function isSnippetId(id: string): boolean {
  return SNIPPET_ID_PATTERN.test(id);
}

/** The address a shared snippet opens at, on this site. */
export function snippetAddress(snippet: Snippet, origin: string): string {
  return new URL(snippet.url, origin).href;
}

const KEPT = "The tutorial's own code is shown instead.";

/** Why a share link's snippet is not in the editor, for the message above it. */
export function describeSnippetLoadError(id: string, error: unknown): string {
  if (hasErrorCode(error, 'NOT_FOUND')) {
    return `There is no shared snippet "${id}": the link may be incomplete or mistyped. ${KEPT}`;
  }
  const detail = describeRunError(error).replace(/\.?$/, '.');
  return `The shared snippet "${id}" could not be loaded: ${detail} ${KEPT}`;
}

/** The message for a share link whose id is not a snippet id at all. */
export function describeMalformedSnippetId(id: string): string {
  const shown = id.length > 40 ? `${id.slice(0, 40)}…` : id;
  return `This share link is broken: "${shown}" is not a snippet id. ${KEPT}`;
}
