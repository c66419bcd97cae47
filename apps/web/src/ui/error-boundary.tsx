import { Component, type ErrorInfo, type ReactNode } from 'react';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** What shows instead of the children; by default 'Something went wrong.' and the message. */
  fallback?: (error: Error) => ReactNode;
  /** A change of this value (the location's key, say) clears the error and tries the children again. */
  resetKey?: string;
}

interface ErrorBoundaryState {
  error: Error | null;
  resetKey: string | undefined;
}

function SomethingWentWrong({ error }: { error: Error }) {
  return (
    <div className="alert alert--error" role="alert">
      <div className="alert__body">
        <p className="alert__message">Something went wrong.</p>
        <p className="alert__meta">{error.message}</p>
      </div>
    </div>
  );
}

/** Shows a fallback instead of a part that failed to render. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(
    props: ErrorBoundaryProps,
    state: ErrorBoundaryState,
  ): Partial<ErrorBoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (error) {
      return this.props.fallback ? (
        this.props.fallback(error)
      ) : (
        <SomethingWentWrong error={error} />
      );
    }
    return this.props.children;
  }
}
