import { useAuthStore } from '../auth/auth-store';

export function ProfilePage() {
  const user = useAuthStore((state) => state.user);
  return (
    <section className="page" aria-labelledby="profile-title">
      <h1 id="profile-title">Profile</h1>
      {user ? (
        <div className="card">
          <h2>Account Information</h2>
          <dl className="details">
            <dt>Username</dt>
            <dd>{user.username}</dd>
            <dt>Role</dt>
            <dd>{user.role}</dd>
          </dl>
        </div>
      ) : null}
    </section>
  );
}
