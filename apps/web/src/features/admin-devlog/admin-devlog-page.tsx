import type { AdminPost } from '@portfolio/types/devlog';
import { useCallback, useState } from 'react';
import { Link, useLocation, useNavigate, useParams, useRoutes } from 'react-router';

import { ErrorPage, NOT_FOUND } from '../../ui/error-page';
import { formatDateTime } from '../../lib/format';
import { serverMessageOr } from '../../lib/server-message';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { nullIfNotFound, useResource } from '../../ui/use-resource';
import { AdminNav } from '../../ui/admin-nav';
import { type NoticeState, noticeOf } from '../../lib/navigation-notice';
import {
  createPost,
  deletePost,
  getAdminPost,
  listAdminPosts,
  listPostAudit,
  updatePost,
} from './admin-devlog-api';
import {
  EMPTY_POST,
  fieldsOf,
  PostForm,
  type PostFormValues,
  STATUS_LABELS,
  valuesOf,
} from './post-form';

import '../devlog/devlog.css';
import './admin-devlog.css';

export const LIST_ERROR = 'Failed to load the posts';
export const SAVE_ERROR = 'Failed to save the post';
export const DELETE_ERROR = 'Failed to delete the post';
export const POST_DELETED = 'Post deleted';
const HISTORY_ERROR = 'Failed to load the changes';
export const DELETE_CONFIRMATION =
  'Are you sure you want to delete this post? This action cannot be undone.';

/** Runs a request; a failure becomes an Error with the server's message (the form shows it). */
async function withMessage<T>(action: Promise<T>, fallback: string): Promise<T> {
  try {
    return await action;
  } catch (error) {
    throw new Error(serverMessageOr(error, fallback), { cause: error });
  }
}

function PageHeader({ title }: { title: string }) {
  return (
    <>
      <header className="admin-dashboard__header">
        <h1 id="admin-devlog-title">{title}</h1>
      </header>
      <AdminNav />
    </>
  );
}

/** The admin's Devlog section: /admin/devlog, /admin/devlog/new, /admin/devlog/:postId. */
export function AdminDevlogSection() {
  return useRoutes([
    { index: true, element: <AdminPostsPage /> },
    { path: 'new', element: <NewPostPage /> },
    { path: ':postId', element: <EditPostPage /> },
    { path: '*', element: <ErrorPage detail={NOT_FOUND} /> },
  ]);
}

function StatusBadge({ post }: { post: Pick<AdminPost, 'status'> }) {
  return (
    <span className={`badge post-status post-status--${post.status}`}>
      {STATUS_LABELS[post.status]}
    </span>
  );
}

/** /admin/devlog: every post with its status, the link to a new one, and recent changes. */
function AdminPostsPage() {
  const notice = noticeOf(useLocation().state);
  const { data, error } = useResource(listAdminPosts, LIST_ERROR);
  const posts = data ?? null;

  return (
    <section className="page admin-devlog" aria-labelledby="admin-devlog-title">
      <PageHeader title="Devlog" />
      {notice ? (
        <p className="notice notice--success" role="status">
          {notice}
        </p>
      ) : null}
      <section className="admin-section" aria-labelledby="posts-list-title">
        <div className="admin-devlog__header">
          <h2 id="posts-list-title">All Posts</h2>
          <Link to="/admin/devlog/new" className="button button--primary">
            New Post
          </Link>
        </div>
        {error ? (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        ) : null}
        {posts === null && !error ? <p className="admin-muted">Loading...</p> : null}
        {posts !== null && posts.length === 0 ? <p className="admin-muted">No posts yet.</p> : null}
        {posts !== null && posts.length > 0 ? (
          <ul className="admin-post-list">
            {posts.map((post) => (
              <li key={post.id} className="admin-post-list__item">
                <h3>
                  <Link to={`/admin/devlog/${post.id}`}>{post.title}</Link>
                </h3>
                <p className="admin-muted">
                  <StatusBadge post={post} />{' '}
                  {post.publishedAt ? formatDateTime(post.publishedAt) : 'No date'} · /devlog/
                  {post.slug}
                  {post.gameId ? ` · ${post.gameId}` : ''}
                </p>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <PostHistory />
    </section>
  );
}

/** The posts' audit log: who changed which post, when, and how. */
function PostHistory({ refreshKey = '' }: { refreshKey?: string }) {
  const { data, error } = useResource(listPostAudit, HISTORY_ERROR, {
    reloadKey: refreshKey,
    isKeptWhileLoading: true,
  });
  // the history is an extra: a failure reads as no changes
  const entries = error ? [] : (data ?? null);
  return (
    <section className="admin-section" aria-labelledby="post-history-title">
      <h2 id="post-history-title">Recent Changes</h2>
      {entries === null ? <p className="admin-muted">Loading...</p> : null}
      {entries !== null && entries.length === 0 ? (
        <p className="admin-muted">No changes yet.</p>
      ) : null}
      {entries !== null && entries.length > 0 ? (
        <ul className="admin-post-history">
          {entries.slice(0, 30).map((entry) => (
            <li key={entry.id}>
              <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>: {entry.actorUsername}{' '}
              {entry.action === 'create'
                ? 'created'
                : entry.action === 'delete'
                  ? 'deleted'
                  : entry.action === 'update'
                    ? 'edited'
                    : `${entry.action}ed`}{' '}
              “{entry.postTitle}” <span className="admin-muted">({entry.detail})</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** /admin/devlog/new: a new post, saved as a draft or published at once. */
function NewPostPage() {
  const navigate = useNavigate();
  const save = (published: boolean) => async (values: PostFormValues) => {
    const post = await withMessage(createPost({ ...fieldsOf(values), published }), SAVE_ERROR);
    void navigate(`/admin/devlog/${post.id}`, {
      state: { notice: published ? 'Post published' : 'Draft saved' } satisfies NoticeState,
    });
  };
  return (
    <section className="page admin-devlog" aria-labelledby="admin-devlog-title">
      <PageHeader title="New Post" />
      <p>
        <Link to="/admin/devlog">← All posts</Link>
      </p>
      <PostForm
        initial={EMPTY_POST}
        actions={[
          { label: 'Save Draft', busyLabel: 'Saving...', isPrimary: true, onRun: save(false) },
          { label: 'Publish', busyLabel: 'Publishing...', onRun: save(true) },
        ]}
      />
    </section>
  );
}

/** /admin/devlog/:postId: edit, publish or unpublish, delete. */
function EditPostPage() {
  const { postId = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const [notice, setNotice] = useState(noticeOf(location.state));
  const load = useCallback(
    (signal: AbortSignal) => nullIfNotFound(getAdminPost(postId, signal)),
    [postId],
  );
  const resource = useResource(load, LIST_ERROR);
  const { setData } = resource;
  const post = resource.data ?? null;
  const isMissing = resource.data === null;
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const error = deleteError ?? resource.error;
  const [isConfirming, setConfirming] = useState(false);
  const [isDeleting, setDeleting] = useState(false);
  const [version, setVersion] = useState(0);

  const saved = useCallback(
    (next: AdminPost, message: string) => {
      setData(() => next);
      setNotice(message);
      // the form starts again from what the server stored
      setVersion((current) => current + 1);
    },
    [setData],
  );

  if (isMissing) {
    return <ErrorPage detail={NOT_FOUND} />;
  }

  const save = async (values: PostFormValues) => {
    saved(await withMessage(updatePost(postId, fieldsOf(values)), SAVE_ERROR), 'Post saved');
  };
  const setPublished = (published: boolean) => async (values: PostFormValues) => {
    const next = await withMessage(
      updatePost(postId, { ...fieldsOf(values), published }),
      SAVE_ERROR,
    );
    saved(next, published ? 'Post published' : 'Post unpublished');
  };
  const handleDelete = async () => {
    setDeleting(true);
    try {
      await deletePost(postId);
      void navigate('/admin/devlog', { state: { notice: POST_DELETED } satisfies NoticeState });
    } catch (caught) {
      setDeleteError(serverMessageOr(caught, DELETE_ERROR));
      setConfirming(false);
    } finally {
      setDeleting(false);
    }
  };

  return (
    <section className="page admin-devlog" aria-labelledby="admin-devlog-title">
      <PageHeader title={post ? `Edit: ${post.title}` : 'Edit Post'} />
      <p>
        <Link to="/admin/devlog">← All posts</Link>
        {post?.status === 'published' ? (
          <>
            {' · '}
            <Link to={`/devlog/${post.slug}`}>View the post</Link>
          </>
        ) : null}
      </p>
      {notice ? (
        <p className="notice notice--success" role="status">
          {notice}
        </p>
      ) : null}
      {error ? (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      ) : null}
      {post ? (
        <>
          <p>
            Status: <StatusBadge post={post} />
          </p>
          <PostForm
            key={version}
            initial={valuesOf(post)}
            actions={[
              { label: 'Save', busyLabel: 'Saving...', isPrimary: true, onRun: save },
              post.published
                ? { label: 'Unpublish', busyLabel: 'Unpublishing...', onRun: setPublished(false) }
                : { label: 'Publish', busyLabel: 'Publishing...', onRun: setPublished(true) },
            ]}
          />
          <section className="admin-section danger-zone" aria-labelledby="post-danger-title">
            <h2 id="post-danger-title">Danger Zone</h2>
            <button
              type="button"
              className="button button--danger"
              onClick={() => setConfirming(true)}
            >
              Delete Post
            </button>
          </section>
          <ConfirmDialog
            isOpen={isConfirming}
            title="Delete this post?"
            message={DELETE_CONFIRMATION}
            confirmLabel="Delete Post"
            isBusy={isDeleting}
            onConfirm={() => void handleDelete()}
            onCancel={() => setConfirming(false)}
          />
          <PostHistory refreshKey={`${post.id}:${post.updatedAt}`} />
        </>
      ) : !error ? (
        <p className="admin-muted">Loading...</p>
      ) : null}
    </section>
  );
}
