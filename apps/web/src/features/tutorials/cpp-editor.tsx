import Editor, { type OnMount } from '@monaco-editor/react';
import { useEffect, useRef } from 'react';

import { editorHeight, EDITOR_LINE_HEIGHT } from './editor-height';
import { monaco } from './monaco-setup';

interface CppEditorProps {
  value: string;
  label: string;
  onChange: (value: string) => void;
  /** Ctrl/Cmd+Enter inside the editor. */
  onRun: () => void;
}

/** The C++ editor (Monaco, light theme), 20 px per line between 3 and 21 lines. */
export function CppEditor({ value, label, onChange, onRun }: CppEditorProps) {
  const onRunRef = useRef(onRun);
  useEffect(() => {
    onRunRef.current = onRun;
  }, [onRun]);

  const handleMount: OnMount = (editor) => {
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => onRunRef.current());
    // Monaco's hidden IME text area has neither id nor name, which browsers report as an issue
    for (const field of editor
      .getContainerDomNode()
      .querySelectorAll('textarea:not([id]):not([name])')) {
      field.setAttribute('name', 'cpp-editor-ime');
    }
  };

  return (
    <div className="cpp-editor" style={{ height: editorHeight(value) }}>
      <Editor
        height="100%"
        language="cpp"
        theme="light"
        value={value}
        loading="Loading..."
        onChange={(next) => onChange(next ?? '')}
        onMount={handleMount}
        options={{
          ariaLabel: label,
          lineHeight: EDITOR_LINE_HEIGHT,
          fontSize: 14,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          automaticLayout: true,
          tabSize: 4,
          padding: { top: 0, bottom: 0 },
          scrollbar: { alwaysConsumeMouseWheel: false },
          fixedOverflowWidgets: true,
        }}
      />
    </div>
  );
}
