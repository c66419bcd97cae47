export function AdminPage() {
  return (
    <section className="page" aria-labelledby="admin-title">
      <h1 id="admin-title">Admin Dashboard</h1>
      <p className="lead">Live activity, analytics and user management are coming soon.</p>
    </section>
  );
}
