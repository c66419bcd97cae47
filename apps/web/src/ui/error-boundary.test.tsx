import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ErrorBoundary } from './error-boundary';

function Broken(): never {
  throw new Error('The profile could not be drawn');
}

describe('ErrorBoundary', () => {
  it("shows 'Something went wrong.' and the message instead of what failed", () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong.');
    expect(alert).toHaveTextContent('The profile could not be drawn');
  });

  it('renders its children when nothing fails', () => {
    render(
      <ErrorBoundary>
        <p>fine</p>
      </ErrorBoundary>,
    );
    expect(screen.getByText('fine')).toBeInTheDocument();
  });

  it('tries its children again when the reset key changes (the visitor went elsewhere)', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const view = render(
      <ErrorBoundary resetKey="first">
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong.');
    view.rerender(
      <ErrorBoundary resetKey="first">
        <p>fine</p>
      </ErrorBoundary>,
    );
    // the same key: the error stays
    expect(screen.getByRole('alert')).toBeInTheDocument();
    view.rerender(
      <ErrorBoundary resetKey="second">
        <p>fine</p>
      </ErrorBoundary>,
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('fine')).toBeInTheDocument();
  });
});
