/** Spec section 9: the code editor grows 20 px per line between 3 and 21 lines. */
export const EDITOR_LINE_HEIGHT = 20;
export const EDITOR_MIN_LINES = 3;
export const EDITOR_MAX_LINES = 21;
export const EDITOR_DEFAULT_HEIGHT = 400;

/** The editor's height in pixels for this source; the default when there is none yet. */
export function editorHeight(code: string | undefined): number {
  if (code === undefined || code.length === 0) {
    return EDITOR_DEFAULT_HEIGHT;
  }
  const lines = code.split('\n').length;
  return Math.min(Math.max(lines, EDITOR_MIN_LINES), EDITOR_MAX_LINES) * EDITOR_LINE_HEIGHT;
}
