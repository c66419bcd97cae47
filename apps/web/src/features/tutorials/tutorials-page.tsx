import type { Tutorial, TutorialSection } from '@portfolio/types';
import { lazy, Suspense } from 'react';

import './tutorials.css';
import { CodeTutorial } from './code-tutorial';
import { tutorials } from './tutorials-data';

// react-markdown and its plugins load in their own chunk.
const MarkdownContent = lazy(() =>
  import('./markdown-content').then((m) => ({ default: m.MarkdownContent })),
);

const SECTIONS: { id: TutorialSection; title: string }[] = [
  { id: 'cpp', title: 'C++ Tutorials' },
  { id: 'unreal', title: 'Unreal Engine Tutorials' },
];

/** /Tutorials: the C++ and Unreal Engine sections with their tutorials (spec section 2). */
export function TutorialsPage() {
  return (
    <div className="page tutorials-page">
      <h1>Tutorials</h1>
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
                <TutorialBody tutorial={tutorial} />
              </article>
            ))}
        </section>
      ))}
    </div>
  );
}

function TutorialBody({ tutorial }: { tutorial: Tutorial }) {
  if (tutorial.type === 'iframe') {
    return (
      <>
        {tutorial.content ? <p>{tutorial.content}</p> : null}
        <iframe
          className="tutorial__frame"
          src={tutorial.iframeSrc}
          title={tutorial.title}
          loading="lazy"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
          sandbox="allow-scripts allow-same-origin allow-popups"
        />
      </>
    );
  }
  if (tutorial.section === 'cpp') {
    return <CodeTutorial title={tutorial.title} initialCode={tutorial.content} />;
  }
  return (
    <Suspense fallback={<p>Loading...</p>}>
      <MarkdownContent>{tutorial.content}</MarkdownContent>
    </Suspense>
  );
}
