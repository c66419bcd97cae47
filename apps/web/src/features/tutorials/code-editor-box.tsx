import type { CompilerDiagnostic } from '@portfolio/types/run-code';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';

import { CodePreview } from './code-preview';
import type { CppEditor } from './cpp-editor';
import { editorHeight } from './editor-height';
import type { EditorHandle, EditorHandoff } from './editor-handle';

interface CppEditorModule {
  CppEditor: typeof CppEditor;
}

let editorModule: CppEditorModule | undefined;
let editorLoading: Promise<CppEditorModule> | undefined;

/**
 * Monaco's chunk (~800 KB gzip), fetched once for the page and only when someone reaches for the
 * editor; a failed download is tried again at the next reach.
 */
export function loadCppEditor(): Promise<CppEditorModule> {
  editorLoading ??= import('./cpp-editor').then(
    (module) => (editorModule = module),
    (error: unknown) => {
      editorLoading = undefined;
      throw error;
    },
  );
  return editorLoading;
}

interface CodeEditorBoxProps {
  value: string;
  label: string;
  onChange: (value: string) => void;
  onRun: () => void;
  diagnostics: readonly CompilerDiagnostic[];
  /** Set once something asked for the full editor (a pointer or the focus in the box, Run). */
  isEditorWanted: boolean;
  onWantEditor: () => void;
  /** Filled with whichever editor is showing, for going to a compiler message's place. */
  handleRef: RefObject<EditorHandle | null>;
}

/**
 * The code box's editor: the highlighted source at once (editable), then Monaco when it is
 * wanted, in the same place at the same size (20 px per line between 3 and 21 lines), so the page
 * neither waits for nor shifts because of the editor's code.
 */
export function CodeEditorBox({
  value,
  label,
  onChange,
  onRun,
  diagnostics,
  isEditorWanted,
  onWantEditor,
  handleRef,
}: CodeEditorBoxProps) {
  const [loaded, setLoaded] = useState<CppEditorModule | undefined>(editorModule);
  const [isReady, setReady] = useState(false);
  // a failed download is tried again at the next reach for the editor (a new attempt)
  const [attempt, setAttempt] = useState(0);
  const [failedAttempt, setFailedAttempt] = useState<number | null>(null);
  const isFailed = failedAttempt === attempt;
  const textareaRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (loaded || !isEditorWanted || isFailed) {
      return;
    }
    let isCurrent = true;
    loadCppEditor().then(
      (module) => {
        if (isCurrent) {
          setLoaded(module);
        }
      },
      () => {
        if (isCurrent) {
          setFailedAttempt(attempt);
        }
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [loaded, isEditorWanted, isFailed, attempt]);

  const wantEditor = () => {
    if (isFailed) {
      setAttempt((count) => count + 1);
    }
    onWantEditor();
  };

  // going to a message's place: in Monaco once it has taken over, else in the text area
  const monacoHandle = useRef<EditorHandle | null>(null);
  useEffect(() => {
    handleRef.current = {
      goTo(line, column) {
        if (monacoHandle.current) {
          monacoHandle.current.goTo(line, column);
          return;
        }
        const textarea = textareaRef.current;
        if (!textarea) {
          return;
        }
        const before = textarea.value.split('\n').slice(0, Math.max(line - 1, 0));
        const offset = before.reduce((sum, text) => sum + text.length + 1, 0) + column - 1;
        textarea.focus();
        textarea.setSelectionRange(offset, offset);
      },
    };
  }, [handleRef]);

  const handoff = useCallback((): EditorHandoff | null => {
    const textarea = textareaRef.current;
    if (!textarea) {
      return null;
    }
    return {
      selectionStart: textarea.selectionStart,
      selectionEnd: textarea.selectionEnd,
      hasFocus: document.activeElement === textarea,
      scrollTop: textarea.scrollTop,
      scrollLeft: textarea.scrollLeft,
    };
  }, []);

  const handleReady = useCallback((handle: EditorHandle) => {
    monacoHandle.current = handle;
    setReady(true);
  }, []);

  const Editor = loaded?.CppEditor;
  return (
    <div
      className="cpp-editor"
      style={{ height: editorHeight(value) }}
      onFocus={wantEditor}
      onPointerDown={wantEditor}
      onPointerEnter={(event) => {
        // a mouse on its way to the code: start the download before the click
        if (event.pointerType === 'mouse') {
          wantEditor();
        }
      }}
    >
      {Editor ? (
        <Editor
          value={value}
          label={label}
          onChange={onChange}
          onRun={onRun}
          diagnostics={diagnostics}
          handoff={handoff}
          onReady={handleReady}
        />
      ) : null}
      {isReady ? null : (
        <>
          <CodePreview
            value={value}
            label={label}
            onChange={onChange}
            onRun={onRun}
            textareaRef={textareaRef}
          />
          {isEditorWanted ? (
            <span className="cpp-editor__status">
              {isFailed ? 'The full editor could not load.' : 'Loading...'}
            </span>
          ) : null}
        </>
      )}
    </div>
  );
}
