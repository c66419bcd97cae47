import {
  AdminGalleryResponse,
  AdminTutorialsResponse,
  type AdminGalleryProject,
  type AdminTutorial,
  ContentAuditResponse,
  type ContentAuditEntry,
  type ContentKind,
  type CreateGalleryProjectRequest,
  type CreateTutorialRequest,
  SiteTextsRequest,
  type UpdateGalleryProjectRequest,
  type UpdateTutorialRequest,
} from '@portfolio/types/content';

import { http, request } from '../../lib/http';

/*
 * The admin's content calls. Each answers nothing the page needs beyond a fresh list,
 * which the section reads again after a change.
 */

export type ContentSection = 'gallery' | 'tutorials';

const itemPath = (section: ContentSection, id: string) =>
  `/api/admin/${section}/${encodeURIComponent(id)}`;

/** Every gallery project, drafts too, in order. */
export async function listAdminGallery(signal?: AbortSignal): Promise<AdminGalleryProject[]> {
  return (await http.get('/api/admin/gallery', AdminGalleryResponse, signal)).projects;
}

/** Every tutorial, drafts too, in order. */
export async function listAdminTutorials(signal?: AbortSignal): Promise<AdminTutorial[]> {
  return (await http.get('/api/admin/tutorials', AdminTutorialsResponse, signal)).tutorials;
}

export async function createGalleryProject(body: CreateGalleryProjectRequest): Promise<void> {
  await request('POST', '/api/admin/gallery', { body });
}

export async function createTutorial(body: CreateTutorialRequest): Promise<void> {
  await request('POST', '/api/admin/tutorials', { body });
}

export async function updateGalleryProject(
  id: string,
  body: UpdateGalleryProjectRequest,
): Promise<void> {
  await request('PATCH', itemPath('gallery', id), { body });
}

export async function updateTutorial(id: string, body: UpdateTutorialRequest): Promise<void> {
  await request('PATCH', itemPath('tutorials', id), { body });
}

/** Publishes (true) or unpublishes (false: back to a draft) an item. */
export async function setPublished(
  section: ContentSection,
  id: string,
  published: boolean,
): Promise<void> {
  await request('PATCH', itemPath(section, id), { body: { published } });
}

export async function deleteContentItem(section: ContentSection, id: string): Promise<void> {
  await request('DELETE', itemPath(section, id));
}

/** Saves a new order: every id of the section, first to last. */
export async function reorderContent(section: ContentSection, ids: string[]): Promise<void> {
  await request('PUT', `/api/admin/${section}/order`, { body: { ids } });
}

/** The site's name and the home page's texts. */
export async function getSiteTexts(signal?: AbortSignal): Promise<SiteTextsRequest> {
  return http.get('/api/admin/site', SiteTextsRequest, signal);
}

export async function updateSiteTexts(body: SiteTextsRequest): Promise<void> {
  await request('PUT', '/api/admin/site', { body });
}

/** One item's (or, without an id, the whole kind's) history, newest first. */
export async function listContentAudit(
  kind: ContentKind,
  itemId: string | undefined,
  signal?: AbortSignal,
): Promise<ContentAuditEntry[]> {
  const query = new URLSearchParams({ kind, ...(itemId ? { itemId } : {}) }).toString();
  return (await http.get(`/api/admin/content/audit?${query}`, ContentAuditResponse, signal))
    .entries;
}
