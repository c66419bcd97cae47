import { z } from 'zod';

import { GalleryProject, MediaAddress, MediaItemInput } from './gallery.js';
import { Tutorial, TutorialSection, TutorialType } from './tutorials.js';

/*
 * The owner's content in the database: gallery projects and tutorials, published or
 * draft, in the owner's order. The public calls answer the spec's shapes (published only); the
 * admin's calls add the status, position and times. Import '@portfolio/types/content'.
 */

/** `GET /api/gallery`: the published projects, in order. */
export const GalleryResponse = z.object({ projects: z.array(GalleryProject) });
export type GalleryResponse = z.infer<typeof GalleryResponse>;

/** `GET /api/tutorials`: the published tutorials, in order. */
export const TutorialsResponse = z.object({ tutorials: z.array(Tutorial) });
export type TutorialsResponse = z.infer<typeof TutorialsResponse>;

const ContentId = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(64, 'is too long (64 characters at most)')
  .regex(/^[A-Za-z0-9_-]+$/, 'may contain only letters, digits, dash and underscore');

/** What the admin's lists add to a public item. */
const adminFields = {
  published: z.boolean(),
  position: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

export const AdminGalleryProject = GalleryProject.extend(adminFields);
export type AdminGalleryProject = z.infer<typeof AdminGalleryProject>;

/** The admin's view of a tutorial: one flat shape for every type (`iframeSrc` null unless iframe). */
export const AdminTutorial = z.object({
  id: z.string(),
  title: z.string(),
  section: TutorialSection,
  type: TutorialType,
  content: z.string(),
  iframeSrc: z.string().nullable(),
  ...adminFields,
});
export type AdminTutorial = z.infer<typeof AdminTutorial>;

export const AdminGalleryResponse = z.object({ projects: z.array(AdminGalleryProject) });
export type AdminGalleryResponse = z.infer<typeof AdminGalleryResponse>;
export const AdminGalleryProjectResponse = z.object({ project: AdminGalleryProject });
export type AdminGalleryProjectResponse = z.infer<typeof AdminGalleryProjectResponse>;
export const AdminTutorialsResponse = z.object({ tutorials: z.array(AdminTutorial) });
export type AdminTutorialsResponse = z.infer<typeof AdminTutorialsResponse>;
export const AdminTutorialResponse = z.object({ tutorial: AdminTutorial });
export type AdminTutorialResponse = z.infer<typeof AdminTutorialResponse>;

const Title = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(200, 'is too long (200 characters at most)');
const Description = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(5000, 'is too long (5000 characters at most)');
const RepositoryLink = z.union([
  z.literal(''),
  z
    .url({ protocol: /^https?$/, error: 'must be an http(s) address' })
    .max(2000, 'is too long (2000 characters at most)'),
]);
const IframeSrc = z
  .url({ protocol: /^https$/, error: 'must be an https: address' })
  .max(2000, 'is too long (2000 characters at most)');
const Content = z.string().max(200_000, 'is too long (200,000 characters at most)');

/**
 * `POST /api/admin/gallery`: the spec's fields and `published` (false: a draft). Without an id,
 * one is made from the title. An empty repositoryLink means none.
 */
export const CreateGalleryProjectRequest = z.object({
  id: ContentId.optional(),
  title: Title,
  description: Description,
  thumbnail: MediaAddress,
  repositoryLink: RepositoryLink.nullable().optional(),
  media: z
    .array(MediaItemInput)
    .min(1, 'needs at least one media item')
    .max(100, 'holds at most 100 items'),
  published: z.boolean().optional(),
});
export type CreateGalleryProjectRequest = z.infer<typeof CreateGalleryProjectRequest>;

/** `PATCH /api/admin/gallery/:id`: any of the fields (the id stays). */
export const UpdateGalleryProjectRequest = CreateGalleryProjectRequest.omit({ id: true })
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'Nothing to change' });
export type UpdateGalleryProjectRequest = z.infer<typeof UpdateGalleryProjectRequest>;

const tutorialFields = {
  title: Title,
  section: z.enum(['cpp', 'unreal'], { error: 'must be cpp or unreal' }),
  type: z.enum(['code', 'markdown', 'iframe'], { error: 'must be code, markdown or iframe' }),
  content: Content,
  iframeSrc: IframeSrc.nullable().optional(),
  published: z.boolean().optional(),
};

/** The rule every stored tutorial keeps: an iframe has its https address; the others content. */
function checkTutorial(
  body: { type?: string; content?: string; iframeSrc?: string | null | undefined },
  ctx: z.RefinementCtx,
) {
  if (body.type === 'iframe' && !body.iframeSrc) {
    ctx.addIssue({ code: 'custom', path: ['iframeSrc'], message: 'is required for an iframe' });
  }
  if (body.type !== undefined && body.type !== 'iframe' && body.content?.trim() === '') {
    ctx.addIssue({ code: 'custom', path: ['content'], message: 'is required' });
  }
}

/** `POST /api/admin/tutorials`: the spec's fields and `published`. */
export const CreateTutorialRequest = z
  .object({ id: ContentId.optional(), ...tutorialFields })
  .superRefine(checkTutorial);
export type CreateTutorialRequest = z.infer<typeof CreateTutorialRequest>;

/** `PATCH /api/admin/tutorials/:id`: any of the fields; the result is checked whole. */
export const UpdateTutorialRequest = z
  .object({
    title: Title.optional(),
    section: tutorialFields.section.optional(),
    type: tutorialFields.type.optional(),
    content: Content.optional(),
    iframeSrc: IframeSrc.nullable().optional(),
    published: z.boolean().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'Nothing to change' });
export type UpdateTutorialRequest = z.infer<typeof UpdateTutorialRequest>;

/** `PUT /api/admin/gallery/order` and `/api/admin/tutorials/order`: every id, in the new order. */
export const ReorderRequest = z.object({
  ids: z.array(ContentId).min(1, 'lists no items').max(1000),
});
export type ReorderRequest = z.infer<typeof ReorderRequest>;

export const CONTENT_KINDS = ['gallery', 'tutorial', 'site'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

export const CONTENT_AUDIT_ACTIONS = [
  'create',
  'update',
  'publish',
  'unpublish',
  'reorder',
  'delete',
] as const;
export type ContentAuditAction = (typeof CONTENT_AUDIT_ACTIONS)[number];

/** One change to the content, as the admin's history lists it. */
export const ContentAuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  kind: z.enum(CONTENT_KINDS),
  itemId: z.string().nullable(),
  action: z.enum(CONTENT_AUDIT_ACTIONS),
  actorUsername: z.string(),
  /** What changed, as a sentence ('Published', 'Changed title, media'). */
  detail: z.string(),
});
export type ContentAuditEntry = z.infer<typeof ContentAuditEntry>;

/** `GET /api/admin/content/audit?kind=&itemId=`: newest first (the last 100). */
export const ContentAuditResponse = z.object({ entries: z.array(ContentAuditEntry) });
export type ContentAuditResponse = z.infer<typeof ContentAuditResponse>;

/**
 * A page's initial data, written by the server into its HTML (`PAGE_DATA_ELEMENT_ID` in
 * site.ts): the published gallery on /Gallery, the published tutorials on /Tutorials.
 */
export const PageData = z.object({
  gallery: z.array(GalleryProject).optional(),
  tutorials: z.array(Tutorial).optional(),
});
export type PageData = z.infer<typeof PageData>;

const HomeCardInput = z.object({
  title: Title,
  text: z.string().trim().max(500, 'is too long (500 characters at most)'),
});

/**
 * `PUT /api/admin/site`: the site's name and the home page's intro and three cards (to Games,
 * Gallery and Tutorials, in that order); `GET /api/admin/site` answers the same shape.
 */
export const SiteTextsRequest = z.object({
  siteName: z.string().trim().min(1, 'is required').max(80, 'is too long (80 characters at most)'),
  home: z.object({
    title: Title,
    lead: z.string().trim().max(1000, 'is too long (1000 characters at most)'),
    cards: z.tuple([HomeCardInput, HomeCardInput, HomeCardInput], {
      error: 'must be the three cards (Games, Gallery, Tutorials)',
    }),
  }),
});
export type SiteTextsRequest = z.infer<typeof SiteTextsRequest>;
