import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

const STATUS_TEXTS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
};

function describeError(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    const statusText = error.statusText || STATUS_TEXTS[error.status] || '';
    return `${error.status} ${statusText}`.trim();
  }
  if (error instanceof Error) {
    return error.message;
  }
  return typeof error === 'string' ? error : 'Unknown error';
}

/** The router's error page: unknown URLs (404), failed loaders and render errors. */
export function ErrorPage() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) {
    console.error(error);
  }
  return (
    <section className="page error-page" aria-labelledby="error-title">
      <h1 id="error-title">Unexpected Application Error!</h1>
      <h2 className="error-page__detail">{describeError(error)}</h2>
      <p>
        <Link to="/">Back to the home page</Link>
      </p>
    </section>
  );
}
