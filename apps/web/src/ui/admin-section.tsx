import type { ReactNode } from 'react';

interface AdminSectionProps {
  /** The heading's id: the section is named by it, and links may point at it. */
  titleId: string;
  title: string;
  children: ReactNode;
}

/** One titled section of an admin page, a region named by its heading. */
export function AdminSection({ titleId, title, children }: AdminSectionProps) {
  return (
    <section className="admin-section" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </section>
  );
}
