/*
 * What markdown the site renders at all, checked before any parser sees it, on the server (the
 * devlog's preview, posts, page and feed) and in the browser (the tutorials' renderer). remark
 * (micromark and mdast) handles containers recursively: a post of "- " × 4000 took 17 s of the
 * server's only thread, "- " × 40000 minutes, and ">" × 50000 overflowed the stack. Real posts
 * nest a handful of levels; this check is one pass over the text and costs microseconds.
 * No zod here: the web app's markdown chunk imports it.
 */

/** The most list and quote levels one line may open (real posts use fewer than ten). */
export const MARKDOWN_DEPTH_MAX = 32;

/**
 * The longest markdown rendered: the largest any contract stores (a tutorial's content; a post's
 * body is at most POST_BODY_MAX, 100 000).
 */
export const MARKDOWN_SIZE_MAX = 200_000;

export type MarkdownLimitCheck =
  { ok: true } | { ok: false; limit: 'depth' | 'size'; message: string };

const SPACE = 0x20;
const TAB = 0x09;
const NEWLINE = 0x0a;
const QUOTE = 0x3e; // >
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

const isBlank = (code: number) => code === SPACE || code === TAB;
const isLineEnd = (code: number) => Number.isNaN(code) || code === NEWLINE || code === 0x0d;

/**
 * How many list and quote levels each line opens, the deepest of them: the markers at the start
 * of a line (`>`, `-`, `*`, `+`, `1.`, `1)` followed by a blank or the line's end) plus its
 * indentation before a marker (two columns per level: a nested item sits at least that far in).
 * Not a parser: it may count a marker inside a fenced code block, which only matters for a
 * block whose lines start with more than MARKDOWN_DEPTH_MAX of them. One pass, no allocation.
 */
export function markdownDepth(text: string): number {
  let deepest = 0;
  let at = 0;
  const length = text.length;
  while (at < length) {
    let columns = 0;
    let markers = 0;
    // the columns before the line's first marker
    let indent = 0;
    let counting = true;
    while (counting && at < length) {
      const code = text.charCodeAt(at);
      if (code === SPACE) {
        columns += 1;
        at += 1;
      } else if (code === TAB) {
        columns += 4 - (columns % 4);
        at += 1;
      } else if (code === QUOTE) {
        indent = markers === 0 ? columns : indent;
        markers += 1;
        at += 1;
      } else if (code === 0x2d || code === 0x2a || code === 0x2b) {
        // - * +: a bullet only when a blank or the line's end follows
        const next = text.charCodeAt(at + 1);
        if (isBlank(next) || isLineEnd(next)) {
          indent = markers === 0 ? columns : indent;
          markers += 1;
          at += 1;
        } else {
          counting = false;
        }
      } else if (code >= DIGIT_0 && code <= DIGIT_9) {
        let end = at;
        while (end < length && end - at < 10) {
          const digit = text.charCodeAt(end);
          if (digit < DIGIT_0 || digit > DIGIT_9) {
            break;
          }
          end += 1;
        }
        const delimiter = text.charCodeAt(end);
        const next = text.charCodeAt(end + 1);
        if ((delimiter === 0x2e || delimiter === 0x29) && (isBlank(next) || isLineEnd(next))) {
          indent = markers === 0 ? columns : indent;
          markers += 1;
          at = end + 1;
        } else {
          counting = false;
        }
      } else {
        counting = false;
      }
    }
    if (markers > 0) {
      deepest = Math.max(deepest, markers + Math.floor(indent / 2));
    }
    // on to the next line
    const newline = text.indexOf('\n', at);
    at = newline === -1 ? length : newline + 1;
  }
  return deepest;
}

/**
 * Whether `text` may be handed to a markdown renderer: at most `sizeMax` characters and
 * MARKDOWN_DEPTH_MAX levels of lists and quotes. The message names the limit.
 */
export function checkMarkdownLimits(
  text: string,
  sizeMax: number = MARKDOWN_SIZE_MAX,
): MarkdownLimitCheck {
  if (text.length > sizeMax) {
    return {
      ok: false,
      limit: 'size',
      message: `Markdown must be at most ${sizeMax} characters (this is ${text.length}).`,
    };
  }
  const depth = markdownDepth(text);
  if (depth > MARKDOWN_DEPTH_MAX) {
    return {
      ok: false,
      limit: 'depth',
      message: `Markdown may nest lists and quotes at most ${MARKDOWN_DEPTH_MAX} levels deep (this nests ${depth}).`,
    };
  }
  return { ok: true };
}
