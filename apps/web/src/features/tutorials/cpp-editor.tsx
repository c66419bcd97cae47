import type { CompilerDiagnostic } from '@portfolio/types/run-code';
import { useEffect, useLayoutEffect, useRef } from 'react';

import { diagnosticsToMarkers } from './diagnostic-markers';
import { EDITOR_LINE_HEIGHT } from './editor-height';
import { EDITOR_SERVICES } from './editor-log-service';
import {
  CODE_FONT_FAMILY,
  CODE_FONT_SIZE,
  type EditorHandle,
  type EditorHandoff,
} from './editor-handle';
import { monaco } from './monaco-setup';

interface CppEditorProps {
  value: string;
  label: string;
  onChange: (value: string) => void;
  /** Ctrl/Cmd+Enter inside the editor. */
  onRun: () => void;
  /** The last compile's messages, shown as markers. */
  diagnostics: readonly CompilerDiagnostic[];
  /** Where the caret and scroll were in the text shown before the editor came. */
  handoff: () => EditorHandoff | null;
  /** The editor is on screen and has taken over from the text shown before it. */
  onReady: (handle: EditorHandle) => void;
}

const SEVERITIES = {
  error: monaco.MarkerSeverity.Error,
  warning: monaco.MarkerSeverity.Warning,
  note: monaco.MarkerSeverity.Info,
};

/**
 * The C++ editor (Monaco, light theme, 20 px per line). It is made in a layout effect, so the
 * text shown before it hands over (value, caret, focus, scroll) in the same task, before the next
 * key press can arrive: nothing typed meanwhile is lost.
 */
export function CppEditor(props: CppEditorProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const latest = useRef(props);
  useLayoutEffect(() => {
    latest.current = props;
  });

  useLayoutEffect(() => {
    const container = containerRef.current;
    if (!container) {
      return;
    }
    // the editor makes its model (and owns it): created first, it starts Monaco's services with
    // ours (EDITOR_SERVICES), which a model made before it would have started without
    const editor = monaco.editor.create(
      container,
      {
        value: latest.current.value,
        language: 'cpp',
        theme: 'vs',
        ariaLabel: latest.current.label,
        lineHeight: EDITOR_LINE_HEIGHT,
        fontSize: CODE_FONT_SIZE,
        fontFamily: CODE_FONT_FAMILY,
        minimap: { enabled: false },
        glyphMargin: false,
        lineNumbersMinChars: 3,
        scrollBeyondLastLine: false,
        automaticLayout: true,
        tabSize: 4,
        padding: { top: 0, bottom: 0 },
        scrollbar: { alwaysConsumeMouseWheel: false },
        fixedOverflowWidgets: true,
      },
      EDITOR_SERVICES,
    );
    const model = editor.getModel();
    if (!model) {
      editor.dispose();
      return;
    }
    editorRef.current = editor;
    // Monaco's hidden IME text area has neither id nor name, which browsers report as an issue
    for (const field of container.querySelectorAll('textarea:not([id]):not([name])')) {
      field.setAttribute('name', 'cpp-editor-ime');
    }
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => latest.current.onRun());
    const changes = editor.onDidChangeModelContent(() => {
      const value = model.getValue();
      if (value !== latest.current.value) {
        latest.current.onChange(value);
      }
    });

    const handoff = latest.current.handoff();
    if (handoff) {
      const start = model.getPositionAt(handoff.selectionStart);
      const end = model.getPositionAt(handoff.selectionEnd);
      editor.setSelection(monaco.Selection.fromPositions(start, end));
      editor.setScrollPosition({ scrollTop: handoff.scrollTop, scrollLeft: handoff.scrollLeft });
      if (handoff.hasFocus) {
        editor.focus();
      }
    }
    latest.current.onReady({
      goTo(line, column) {
        const position = model.validatePosition({ lineNumber: line, column });
        editor.setPosition(position);
        editor.revealPositionInCenterIfOutsideViewport(position);
        editor.focus();
      },
    });

    return () => {
      changes.dispose();
      editor.dispose();
      editorRef.current = null;
    };
  }, []);

  // a value from outside (a shared snippet opened) replaces the text as one undoable edit
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (model && model.getValue() !== props.value) {
      editorRef.current?.executeEdits('code-box', [
        { range: model.getFullModelRange(), text: props.value },
      ]);
    }
  }, [props.value]);

  // markers belong to the source that was compiled: set when a run answers, kept while editing
  // (Monaco moves them with the text), cleared by the next run
  const { diagnostics } = props;
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) {
      return;
    }
    monaco.editor.setModelMarkers(
      model,
      'compiler',
      diagnosticsToMarkers(diagnostics, model.getValue(), SEVERITIES),
    );
  }, [diagnostics]);

  return <div ref={containerRef} className="cpp-editor__monaco" />;
}
