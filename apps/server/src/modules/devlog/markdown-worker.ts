import { parentPort } from 'node:worker_threads';

import { describeMarkdown, renderMarkdownHtml, renderPostHtml } from './markdown.js';
import type {
  MarkdownJob,
  MarkdownReady,
  MarkdownReply,
  MarkdownValue,
} from './markdown-renderer.js';

/*
 * The devlog's markdown rendering, in a worker thread (markdown-renderer.ts starts it and ends it
 * past its time limit): remark is recursive and can take seconds, which on the main thread would
 * stall every request. A stack overflow here is an answer, not a crash.
 */

const run = (job: MarkdownJob): MarkdownValue => {
  switch (job.kind) {
    case 'post':
      return renderPostHtml(job.body);
    case 'feed':
      return renderMarkdownHtml(job.body, job.origin);
    case 'describe':
      return describeMarkdown(job.body);
  }
};

parentPort?.on('message', (job: MarkdownJob) => {
  let reply: MarkdownReply;
  try {
    reply = { id: job.id, ok: true, value: run(job) };
  } catch (error) {
    reply = {
      id: job.id,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
    };
  }
  parentPort?.postMessage(reply);
});

// loaded (remark and all): the renderer's time limit counts from here, not from a cold start
parentPort?.postMessage('ready' satisfies MarkdownReady);
