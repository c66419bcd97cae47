import type { RunCodeResponse } from '@portfolio/types';
import { lazy, Suspense, useCallback, useId, useRef, useState } from 'react';

import { editorHeight } from './editor-height';
import { describeRunError, describeRunResult, runCode } from './run-code-api';

// Monaco is large: it loads in its own chunk, only when a C++ tutorial is on screen.
const CppEditor = lazy(() => import('./cpp-editor').then((m) => ({ default: m.CppEditor })));

type RunState =
  | { status: 'idle' }
  | { status: 'running' }
  | { status: 'done'; result: RunCodeResponse }
  | { status: 'failed'; detail: string };

interface CodeTutorialProps {
  title: string;
  initialCode: string;
}

/** A C++ tutorial: the editable sample, a Run button and the output box. */
export function CodeTutorial({ title, initialCode }: CodeTutorialProps) {
  const [code, setCode] = useState(initialCode);
  const [state, setState] = useState<RunState>({ status: 'idle' });
  const isRunning = state.status === 'running';
  const runningRef = useRef(false);
  const hintId = useId();
  const outputId = useId();

  const handleRun = useCallback(() => {
    // Ctrl/Cmd+Enter while a run is going starts no second one
    if (runningRef.current) {
      return;
    }
    runningRef.current = true;
    setState({ status: 'running' });
    runCode(code)
      .then((result) => setState({ status: 'done', result }))
      .catch((error: unknown) => setState({ status: 'failed', detail: describeRunError(error) }))
      .finally(() => {
        runningRef.current = false;
      });
  }, [code]);

  return (
    <div className="code-tutorial">
      <Suspense
        fallback={
          <div className="cpp-editor cpp-editor--loading" style={{ height: editorHeight(code) }}>
            Loading...
          </div>
        }
      >
        <CppEditor
          value={code}
          label={`${title}: C++ source`}
          onChange={setCode}
          onRun={handleRun}
        />
      </Suspense>
      <div className="code-tutorial__actions">
        <button
          type="button"
          className="button button--primary"
          onClick={handleRun}
          disabled={isRunning}
          aria-describedby={hintId}
          aria-controls={outputId}
        >
          {isRunning ? 'Running...' : 'Run'}
        </button>
        <span id={hintId} className="code-tutorial__hint">
          Ctrl+Enter (⌘+Enter) in the editor runs the code. Ctrl+M lets Tab leave the editor.
        </span>
      </div>
      <div
        id={outputId}
        className={`code-output${state.status === 'failed' ? ' code-output--error' : ''}`}
        role="status"
        aria-label="Output"
        aria-busy={isRunning}
      >
        <RunOutput state={state} />
      </div>
    </div>
  );
}

function RunOutput({ state }: { state: RunState }) {
  switch (state.status) {
    case 'idle':
      return <p className="code-output__placeholder">Press Run to compile and run the program.</p>;
    case 'running':
      return (
        <p className="code-output__running">
          <span className="code-output__spinner" aria-hidden="true" />
          Compiling and running...
        </p>
      );
    case 'failed':
      return <pre>{`Error executing code.\n${state.detail}`}</pre>;
    case 'done': {
      const notes = describeRunResult(state.result);
      return (
        <>
          <pre>{state.result.output.length > 0 ? state.result.output : '(no output)'}</pre>
          {notes.map((note) => (
            <p key={note} className="code-output__note">
              {note}
            </p>
          ))}
        </>
      );
    }
  }
}
