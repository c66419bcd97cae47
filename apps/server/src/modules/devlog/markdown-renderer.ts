import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

import { checkMarkdownLimits } from '@portfolio/types/markdown-limits';

import { HttpError } from '../../lib/errors.js';
import { moduleLogger } from '../../lib/logger.js';

const log = moduleLogger('devlog');

/** What the worker is asked (markdown-worker.ts). */
export type MarkdownJob =
  | { id: number; kind: 'post'; body: string }
  | { id: number; kind: 'feed'; body: string; origin: string }
  | { id: number; kind: 'describe'; body: string };

export type MarkdownDescription = { excerpt: string; image: string | null };
export type MarkdownValue = string | MarkdownDescription;

/** What the worker answers: the value, or the message of what it threw (a stack overflow). */
export type MarkdownReply =
  { id: number; ok: true; value: MarkdownValue } | { id: number; ok: false; message: string };

/** What the worker says once it has loaded, before any answer. */
export type MarkdownReady = 'ready';

/** How long one render may take before its worker is ended (real posts take milliseconds). */
export const MARKDOWN_TIME_LIMIT_MS = 5000;

/**
 * How long a new worker may take to load (from source, through tsx, on a busy machine: seconds);
 * a render's own time limit starts once it has.
 */
const WORKER_START_LIMIT_MS = 60_000;

/** The code of every refusal: the body's markdown cannot be rendered (limits, time, stack). */
export const MARKDOWN_REFUSED = 'MARKDOWN_TOO_COMPLEX';

const refused = (message: string) => new HttpError(MARKDOWN_REFUSED, message);

/**
 * The devlog's markdown, rendered off the event loop. Each call first checks the body's size and
 * nesting (checkMarkdownLimits, one linear pass), then hands it to one worker thread, reused from
 * call to call; a render past the time limit ends the worker (a new one starts for the next) and
 * is refused. Every refusal is a 422 MARKDOWN_TOO_COMPLEX whose message names the limit.
 */
export interface MarkdownRenderer {
  /** The body as the post page shows it (renderPostHtml). */
  postHtml(body: string): Promise<string>;
  /** The body as the feed carries it, site paths made absolute (renderMarkdownHtml). */
  feedHtml(body: string, origin: string): Promise<string>;
  /** The excerpt and first image of a body (describeMarkdown). */
  describe(body: string): Promise<MarkdownDescription>;
  close(): Promise<void>;
}

/**
 * Starts the worker: its own entry in dist/ in the bundle (scripts/build.mjs); from source (tests,
 * development) the .ts file beside this one through tsx's API, as run-code's workers do.
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./devlog-markdown-worker.js', import.meta.url));
  }
  // require.resolve finds the CommonJS build; the ES module sits beside it
  const tsxApi = createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const tsx = pathToFileURL(tsxApi).href;
  const entry = new URL('./markdown-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true });
}

/** Ends a worker that is no longer wanted; an error while ending it is of no interest. */
function endWorker(thread: Worker): Promise<number> {
  thread.removeAllListeners();
  thread.on('error', () => undefined);
  return thread.terminate();
}

const asHtml = (value: MarkdownValue): string => {
  if (typeof value !== 'string') {
    throw new Error('the markdown worker answered a description for HTML');
  }
  return value;
};

const asDescription = (value: MarkdownValue): MarkdownDescription => {
  if (typeof value === 'string') {
    throw new Error('the markdown worker answered HTML for a description');
  }
  return value;
};

type Pending = {
  job: MarkdownJob;
  resolve: (value: MarkdownValue) => void;
  reject: (error: Error) => void;
};

export function createMarkdownRenderer(options: { timeLimitMs?: number } = {}): MarkdownRenderer {
  const timeLimitMs = options.timeLimitMs ?? MARKDOWN_TIME_LIMIT_MS;
  const queue: Pending[] = [];
  let worker: { thread: Worker; ready: boolean } | undefined;
  let current: { pending: Pending; timer: NodeJS.Timeout | undefined } | undefined;
  let nextId = 1;
  let closed = false;

  const finish = (id: number, outcome: { value: MarkdownValue } | { error: Error }) => {
    if (!current || current.pending.job.id !== id) {
      return;
    }
    const { pending, timer } = current;
    clearTimeout(timer);
    current = undefined;
    if ('value' in outcome) {
      pending.resolve(outcome.value);
    } else {
      pending.reject(outcome.error);
    }
    startNext();
  };

  const retire = (ended: Worker) => {
    if (worker?.thread === ended) {
      worker = undefined;
    }
    // its exit is not waited for
    void endWorker(ended);
  };

  const ensureWorker = (): { thread: Worker; ready: boolean } => {
    if (worker) {
      return worker;
    }
    const started = startWorker();
    const entry = { thread: started, ready: false };
    // an idle worker does not keep the process alive
    started.unref();
    started.on('message', (reply: MarkdownReply | MarkdownReady) => {
      if (reply === 'ready') {
        entry.ready = true;
        armLimit();
        return;
      }
      finish(
        reply.id,
        reply.ok
          ? { value: reply.value }
          : { error: refused(`The markdown could not be rendered: ${reply.message}`) },
      );
    });
    const fail = (error: Error) => {
      log.warn({ err: error }, 'the markdown worker stopped');
      retire(started);
      if (current) {
        finish(current.pending.job.id, {
          error: refused('The markdown could not be rendered: its renderer stopped.'),
        });
      }
    };
    started.on('error', fail);
    started.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    worker = entry;
    return entry;
  };

  /** The running render's time limit, once its worker has loaded (the start's own, before). */
  const armLimit = () => {
    if (!current || !worker) {
      return;
    }
    const { pending } = current;
    const thread = worker.thread;
    const limitMs = worker.ready ? timeLimitMs : WORKER_START_LIMIT_MS;
    clearTimeout(current.timer);
    current.timer = setTimeout(() => {
      retire(thread);
      finish(pending.job.id, {
        error: refused(
          `The markdown took longer than ${timeLimitMs / 1000} s to render: nest fewer lists and quotes, or split it.`,
        ),
      });
    }, limitMs);
  };

  const startNext = () => {
    if (current || closed) {
      return;
    }
    const pending = queue.shift();
    if (!pending) {
      return;
    }
    const running = ensureWorker();
    current = { pending, timer: undefined };
    armLimit();
    running.thread.postMessage(pending.job);
  };

  const render = (job: MarkdownJob): Promise<MarkdownValue> => {
    const limits = checkMarkdownLimits(job.body);
    if (!limits.ok) {
      return Promise.reject(refused(limits.message));
    }
    if (closed) {
      return Promise.reject(new Error('the markdown renderer is closed'));
    }
    return new Promise((resolve, reject) => {
      queue.push({ job, resolve, reject });
      startNext();
    });
  };

  return {
    async postHtml(body) {
      return asHtml(await render({ id: nextId++, kind: 'post', body }));
    },
    async feedHtml(body, origin) {
      return asHtml(await render({ id: nextId++, kind: 'feed', body, origin }));
    },
    async describe(body) {
      return asDescription(await render({ id: nextId++, kind: 'describe', body }));
    },
    async close() {
      closed = true;
      for (const pending of queue.splice(0)) {
        pending.reject(new Error('the markdown renderer is closed'));
      }
      if (current) {
        clearTimeout(current.timer);
        current.pending.reject(new Error('the markdown renderer is closed'));
        current = undefined;
      }
      if (worker) {
        const ending = worker.thread;
        worker = undefined;
        await endWorker(ending);
      }
    },
  };
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A stored body that cannot be rendered (over the limits, too slow, a stack overflow), as the
 * page and the feed show it: its text, escaped, with its line breaks kept.
 */
export const plainTextHtml = (body: string) =>
  `<pre class="markdown__plain">${escapeHtml(body)}</pre>`;

/** The body's HTML from `render`, or its plain text when it is refused (never an error). */
export async function htmlOrPlainText(
  render: () => Promise<string>,
  body: string,
): Promise<string> {
  try {
    return await render();
  } catch (error) {
    if (error instanceof HttpError && error.code === MARKDOWN_REFUSED) {
      return plainTextHtml(body);
    }
    throw error;
  }
}
