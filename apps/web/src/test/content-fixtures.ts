import { SEED_GALLERY, SEED_TUTORIALS } from '../../../server/src/modules/content/seed-content';

/*
 * The spec's content as the server seeds it: the web app no longer bundles it, so its
 * tests read the server's seed file itself (data and types only: nothing of the server runs).
 * stubApi answers GET /api/gallery and /api/tutorials with it unless a test says otherwise.
 */
export const galleryProjects = SEED_GALLERY;
export const tutorials = SEED_TUTORIALS;
