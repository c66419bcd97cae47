import {
  AdminPostResponse,
  AdminPostsResponse,
  type AdminPost,
  type CreatePostRequest,
  PostAuditResponse,
  PostPreviewResponse,
  type PostAuditEntry,
  type UpdatePostRequest,
} from '@portfolio/types/devlog';

import { http, request } from '../../lib/http';

const postPath = (id: string) => `/api/admin/posts/${encodeURIComponent(id)}`;

/** Every post, drafts and scheduled ones too (GET /api/admin/posts). */
export async function listAdminPosts(signal?: AbortSignal): Promise<AdminPost[]> {
  return (await http.get('/api/admin/posts', AdminPostsResponse, signal)).posts;
}

export async function getAdminPost(id: string, signal?: AbortSignal): Promise<AdminPost> {
  return (await http.get(postPath(id), AdminPostResponse, signal)).post;
}

export async function createPost(body: CreatePostRequest): Promise<AdminPost> {
  return (await http.post('/api/admin/posts', body, AdminPostResponse)).post;
}

/** Changes any of a post's fields; `{ published }` publishes or unpublishes it. */
export async function updatePost(id: string, body: UpdatePostRequest): Promise<AdminPost> {
  return (await request('PATCH', postPath(id), { body, schema: AdminPostResponse })).post;
}

export async function deletePost(id: string): Promise<void> {
  await request('DELETE', postPath(id));
}

/** The posts' audit log, newest first (the last 100 entries). */
export async function listPostAudit(signal?: AbortSignal): Promise<PostAuditEntry[]> {
  return (await http.get('/api/admin/posts/audit', PostAuditResponse, signal)).entries;
}

/** A body as the post page will show it (the server's rendering, for the editor's preview). */
export async function previewPost(body: string): Promise<string> {
  return (await http.post('/api/admin/posts/preview', { body }, PostPreviewResponse)).html;
}
