import { PAGE_DATA_ELEMENT_ID } from '@portfolio/types/site';

/*
 * A page's initial data: the server writes the published gallery into /Gallery's
 * HTML and the tutorials into /Tutorials', so the page shows them without a request after its
 * script. The data serves the first view only; a later visit in the same tab asks the API
 * (ui/use-page-content.ts).
 */

let parsed: Record<string, unknown> | undefined;
const used = new Set<string>();

function readPageData(doc: Document): Record<string, unknown> {
  if (parsed) {
    return parsed;
  }
  parsed = {};
  const text = doc.getElementById(PAGE_DATA_ELEMENT_ID)?.textContent;
  if (text) {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null) {
        parsed = Object.fromEntries(Object.entries(value));
      }
    } catch {
      // unreadable: the page asks the API
    }
  }
  return parsed;
}

/** The data the server wrote under `key`, unless a view has used it already. */
export function initialPageData(key: string, doc: Document = document): unknown {
  return used.has(key) ? undefined : readPageData(doc)[key];
}

/** A view has shown `key`'s data: the next one asks the API. */
export function markPageDataUsed(key: string): void {
  used.add(key);
}
