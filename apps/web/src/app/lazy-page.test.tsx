import { render, screen } from '@testing-library/react';
import { Suspense, type ComponentType } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { ErrorBoundary } from '../ui/error-boundary';
import { pageErrorFallback } from '../ui/error-page';
import { lazyPage } from './lazy-page';

function Hello() {
  return <h1>Hello page</h1>;
}

function renderPage(Page: ComponentType) {
  return (
    <MemoryRouter>
      <ErrorBoundary fallback={pageErrorFallback}>
        <Suspense fallback={<p>Loading...</p>}>
          <Page />
        </Suspense>
      </ErrorBoundary>
    </MemoryRouter>
  );
}

describe('lazyPage', () => {
  it("shows 'Loading chunk failed' on the error page when the download fails", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { Page } = lazyPage(
      () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
      (module: { Hello: typeof Hello }) => module.Hello,
    );
    render(renderPage(Page));
    expect(
      await screen.findByRole('heading', { name: 'Unexpected Application Error!' }),
    ).toBeVisible();
    expect(screen.getByText('Loading chunk failed')).toBeVisible();
  });

  it('renders a preloaded page at once, without a loading state, and downloads it once', async () => {
    const load = vi.fn(() => Promise.resolve({ Hello }));
    const { Page, preload } = lazyPage(load, (module) => module.Hello);
    await preload();
    render(renderPage(Page));
    expect(screen.getByRole('heading', { name: 'Hello page' })).toBeVisible();
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
