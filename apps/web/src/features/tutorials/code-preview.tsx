import { type KeyboardEvent, type Ref, useMemo, useRef } from 'react';

import { tokenizeCpp } from './cpp-highlight';

interface CodePreviewProps {
  value: string;
  label: string;
  onChange: (value: string) => void;
  /** Ctrl/Cmd+Enter. */
  onRun: () => void;
  textareaRef: Ref<HTMLTextAreaElement>;
}

/** Whether a key press is Ctrl+Enter (⌘+Enter on a Mac). */
export function isRunShortcut(event: KeyboardEvent): boolean {
  return event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey;
}

/**
 * The source as highlighted text, shown at once while the editor's code loads, laid out as the
 * editor lays it out (gutter, font, 20 px lines). A transparent text area over it takes typing,
 * so the box can be edited before the editor arrives and hands its text, caret and focus over.
 */
export function CodePreview({ value, label, onChange, onRun, textareaRef }: CodePreviewProps) {
  const tokens = useMemo(() => tokenizeCpp(value), [value]);
  const lineCount = useMemo(() => value.split('\n').length, [value]);
  const textRef = useRef<HTMLPreElement>(null);
  const gutterRef = useRef<HTMLDivElement>(null);

  const handleScroll = (event: { currentTarget: HTMLTextAreaElement }) => {
    const { scrollTop, scrollLeft } = event.currentTarget;
    if (textRef.current) {
      textRef.current.style.transform = `translate(${-scrollLeft}px, ${-scrollTop}px)`;
    }
    if (gutterRef.current) {
      gutterRef.current.style.transform = `translateY(${-scrollTop}px)`;
    }
  };

  return (
    <div className="code-preview">
      <div className="code-preview__gutter" aria-hidden="true">
        <div ref={gutterRef}>
          {Array.from({ length: lineCount }, (_, index) => (
            <div key={index}>{index + 1}</div>
          ))}
        </div>
      </div>
      <div className="code-preview__body">
        <pre ref={textRef} className="code-preview__text" aria-hidden="true">
          {tokens.map((token, index) =>
            token.kind === 'plain' ? (
              token.text
            ) : (
              <span key={index} className={`cpp-${token.kind}`}>
                {token.text}
              </span>
            ),
          )}
          {/* a last empty line still takes its height, as in a text area */}
          {'\n'}
        </pre>
        <textarea
          ref={textareaRef}
          className="code-preview__input"
          aria-label={label}
          name="cpp-source"
          value={value}
          wrap="off"
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          autoCorrect="off"
          onChange={(event) => onChange(event.target.value)}
          onScroll={handleScroll}
          onKeyDown={(event) => {
            if (isRunShortcut(event)) {
              event.preventDefault();
              onRun();
            }
          }}
        />
      </div>
    </div>
  );
}
