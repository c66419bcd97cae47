import type { GalleryProject, MediaItem } from '@portfolio/types';
import { guardedSchema } from '@portfolio/types/client';

import { http } from '../../lib/http';

const isString = (value: unknown): value is string => typeof value === 'string';

function isMediaItem(value: unknown): value is MediaItem {
  return (
    typeof value === 'object' &&
    value !== null &&
    'type' in value &&
    'source' in value &&
    isString(value.type) &&
    isString(value.source)
  );
}

function isGalleryProject(value: unknown): value is GalleryProject {
  return (
    typeof value === 'object' &&
    value !== null &&
    'id' in value &&
    'title' in value &&
    'description' in value &&
    'thumbnail' in value &&
    'media' in value &&
    isString(value.id) &&
    isString(value.title) &&
    isString(value.description) &&
    isString(value.thumbnail) &&
    Array.isArray(value.media) &&
    value.media.every(isMediaItem)
  );
}

/**
 * Whether a value is a list of gallery projects (a zod-free check: zod would be most of this
 * page's script, and the data comes from this site's own server).
 */
export function isGalleryProjects(value: unknown): value is GalleryProject[] {
  return Array.isArray(value) && value.every(isGalleryProject);
}

const GalleryAnswer = guardedSchema(
  'gallery',
  (value: unknown): value is { projects: GalleryProject[] } =>
    typeof value === 'object' &&
    value !== null &&
    'projects' in value &&
    isGalleryProjects(value.projects),
);

/** `GET /api/gallery`: the published projects, in the owner's order. */
export async function listGallery(signal?: AbortSignal): Promise<GalleryProject[]> {
  return (await http.get('/api/gallery', GalleryAnswer, signal)).projects;
}
