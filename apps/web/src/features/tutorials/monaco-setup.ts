/**
 * A self-hosted Monaco with only what C++ editing needs: the editor core, the C++ tokenizer, a
 * few editing features and the editor worker, all served from the site itself (no CDN; the CSP
 * allows scripts and workers from 'self'). Imported only by the editor's lazy chunk.
 */
import * as monaco from 'monaco-editor/editor/editor.api';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import 'monaco-editor/languages/definitions/cpp/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/codeEditor/register';
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/comment/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/cursorUndo/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/folding/register';
// compiler diagnostics: their message on hover, F8 / Shift+F8 go from one to the next
import 'monaco-editor/features/gotoError/register';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/indentation/register';
import 'monaco-editor/features/linesOperations/register';
import 'monaco-editor/features/multicursor/register';
import 'monaco-editor/features/toggleTabFocusMode/register';
// marks invisible and look-alike characters in pasted code (computed in the editor worker)
import 'monaco-editor/features/unicodeHighlighter/register';
import 'monaco-editor/features/wordHighlighter/register';
import 'monaco-editor/features/wordOperations/register';

self.MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

export { monaco };
