import { Link, useParams } from 'react-router';

export function AdminUserPage() {
  const { userId } = useParams();
  return (
    <section className="page" aria-labelledby="admin-user-title">
      <p>
        <Link to="/admin" className="button button--secondary">
          Back
        </Link>
      </p>
      <h1 id="admin-user-title">User Details</h1>
      <p className="lead">User {userId}</p>
    </section>
  );
}
