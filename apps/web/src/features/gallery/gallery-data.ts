/**
 * The gallery's content lives in packages/types (gallery-content.ts), so the server can give a
 * project's deep link (/Gallery?project=<id>) its social card too.
 */
export { galleryProjects } from '@portfolio/types/gallery-content';
