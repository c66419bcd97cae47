import { Component, type ErrorInfo, type ReactNode } from 'react';

interface ErrorBoundaryState {
  error: Error | null;
}

/** Shows 'Something went wrong.' and the error's message instead of a part that failed to render. */
export class ErrorBoundary extends Component<{ children: ReactNode }, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (error) {
      return (
        <div className="alert alert--error" role="alert">
          <div className="alert__body">
            <p className="alert__message">Something went wrong.</p>
            <p className="alert__meta">{error.message}</p>
          </div>
        </div>
      );
    }
    return this.props.children;
  }
}
