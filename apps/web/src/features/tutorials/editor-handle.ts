/** What a code box can ask of whichever editor shows its source (the preview or Monaco). */
export interface EditorHandle {
  /** Puts the caret at a 1-based line and column, scrolls it into view and focuses the editor. */
  goTo: (line: number, column: number) => void;
}

/** The state of the text shown before Monaco, which Monaco takes over when it arrives. */
export interface EditorHandoff {
  selectionStart: number;
  selectionEnd: number;
  hasFocus: boolean;
  scrollTop: number;
  scrollLeft: number;
}

/** One font for the preview and Monaco, so the text does not move when the editor arrives. */
export const CODE_FONT_FAMILY =
  "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', 'DejaVu Sans Mono', monospace";
export const CODE_FONT_SIZE = 14;
