import { describe, expect, it } from 'vitest';

import { editorHeight } from './editor-height';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`).join('\n');

describe('editorHeight', () => {
  it('is 20 px per line between 3 and 21 lines', () => {
    expect(editorHeight(lines(3))).toBe(60);
    expect(editorHeight(lines(8))).toBe(160);
    expect(editorHeight(lines(21))).toBe(420);
  });

  it('never goes below 3 lines or above 21', () => {
    expect(editorHeight('int main() {}')).toBe(60);
    expect(editorHeight(lines(2))).toBe(60);
    expect(editorHeight(lines(22))).toBe(420);
    expect(editorHeight(lines(500))).toBe(420);
  });

  it('counts a trailing line break as a line, as the editor shows it', () => {
    expect(editorHeight(`${lines(5)}\n`)).toBe(120);
  });

  it('is 400 px by default, before there is any source', () => {
    expect(editorHeight(undefined)).toBe(400);
    expect(editorHeight('')).toBe(400);
  });
});
