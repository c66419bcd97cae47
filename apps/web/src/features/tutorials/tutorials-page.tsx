import type { Tutorial, TutorialSection } from '@portfolio/types';
import { lazy, Suspense, useRef } from 'react';

import { usePageContent } from '../../ui/use-page-content';
import './tutorials.css';
import { CodeTutorial } from './code-tutorial';
import { SharedSnippet } from './shared-snippet';
import { isTutorials, listTutorials } from './tutorials-api';
import { useNearViewport } from './use-near-viewport';

// react-markdown and its plugins load in their own chunk.
const MarkdownContent = lazy(() =>
  import('../../ui/markdown-content').then((m) => ({ default: m.MarkdownContent })),
);

const SECTIONS: { id: TutorialSection; title: string }[] = [
  { id: 'cpp', title: 'C++ Tutorials' },
  { id: 'unreal', title: 'Unreal Engine Tutorials' },
];

/**
 * /Tutorials: the C++ and Unreal Engine sections with their tutorials (spec section 2), the
 * owner's published ones (written into the page by the server, else `GET /api/tutorials`).
 */
export function TutorialsPage() {
  const content = usePageContent('tutorials', isTutorials, listTutorials);
  return (
    <div className="page tutorials-page">
      <h1>Tutorials</h1>
      {content.kind === 'loaded' ? (
        <TutorialSections tutorials={content.value} />
      ) : content.kind === 'loading' ? (
        <p role="status">Loading...</p>
      ) : (
        <div role="alert">
          <p>The tutorials could not be loaded.</p>
          <button type="button" className="button" onClick={content.retry}>
            Try again
          </button>
        </div>
      )}
    </div>
  );
}

/** The two sections and their tutorials, in order (also the admin's preview). */
export function TutorialSections({ tutorials }: { tutorials: readonly Tutorial[] }) {
  // a share link opens its snippet in the first C++ code box
  const shareTarget = tutorials.find((t) => t.section === 'cpp' && t.type === 'code');
  return (
    <>
      {SECTIONS.map((section) => (
        <section
          key={section.id}
          className="tutorials-section"
          aria-labelledby={`tutorials-${section.id}`}
        >
          <h2 id={`tutorials-${section.id}`}>{section.title}</h2>
          {tutorials
            .filter((tutorial) => tutorial.section === section.id)
            .map((tutorial) => (
              <article
                key={tutorial.id}
                className="card tutorial"
                aria-labelledby={`tutorial-${tutorial.id}`}
              >
                <h3 id={`tutorial-${tutorial.id}`}>{tutorial.title}</h3>
                <TutorialBody tutorial={tutorial} isShareTarget={tutorial === shareTarget} />
              </article>
            ))}
        </section>
      ))}
    </>
  );
}

function TutorialBody({ tutorial, isShareTarget }: { tutorial: Tutorial; isShareTarget: boolean }) {
  if (tutorial.type === 'iframe') {
    // only https: frames (the server refuses others; a stale page must not show one either)
    const isHttps = /^https:\/\//i.test(tutorial.iframeSrc);
    return (
      <>
        {tutorial.content ? <p>{tutorial.content}</p> : null}
        {isHttps ? (
          <iframe
            className="tutorial__frame"
            src={tutorial.iframeSrc}
            title={tutorial.title}
            loading="lazy"
            allowFullScreen
            referrerPolicy="strict-origin-when-cross-origin"
            sandbox="allow-scripts allow-same-origin allow-popups"
          />
        ) : null}
      </>
    );
  }
  if (tutorial.type === 'code' && tutorial.section === 'cpp') {
    return (
      <>
        {isShareTarget ? (
          <SharedSnippet tutorialId={tutorial.id} initialCode={tutorial.content} />
        ) : null}
        <CodeTutorial id={tutorial.id} title={tutorial.title} initialCode={tutorial.content} />
      </>
    );
  }
  return <DeferredMarkdown>{tutorial.content}</DeferredMarkdown>;
}

/**
 * Markdown below the fold is parsed and rendered when it comes near the viewport: on a phone its
 * parser and table cost more main-thread time than the rest of the page together.
 */
function DeferredMarkdown({ children }: { children: string }) {
  const slotRef = useRef<HTMLDivElement>(null);
  const isNear = useNearViewport(slotRef);
  const placeholder = <p className="markdown-placeholder">Loading...</p>;
  return (
    <div ref={slotRef}>
      {isNear ? (
        <Suspense fallback={placeholder}>
          <MarkdownContent>{children}</MarkdownContent>
        </Suspense>
      ) : (
        placeholder
      )}
    </div>
  );
}
