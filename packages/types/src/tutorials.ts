import { z } from 'zod';

export const TUTORIAL_SECTIONS = ['cpp', 'unreal'] as const;
export const TutorialSection = z.enum(TUTORIAL_SECTIONS);
export type TutorialSection = z.infer<typeof TutorialSection>;

const tutorialBase = {
  id: z.string().regex(/^[A-Za-z0-9_-]+$/, 'may contain only letters, digits, dash and underscore'),
  title: z.string().min(1),
  section: TutorialSection,
};

export const TUTORIAL_TYPES = ['code', 'markdown', 'iframe'] as const;
export const TutorialType = z.enum(TUTORIAL_TYPES);
export type TutorialType = z.infer<typeof TutorialType>;

/**
 * A tutorial (spec section 3). A code item's content is C++ source (section cpp, shown in the
 * editor with a Run button) or markdown (section unreal); a markdown item's content is markdown
 * in either section; an iframe item embeds `iframeSrc` (https only).
 */
export const Tutorial = z.discriminatedUnion('type', [
  z.object({ ...tutorialBase, type: z.literal('code'), content: z.string().min(1) }),
  z.object({ ...tutorialBase, type: z.literal('markdown'), content: z.string().min(1) }),
  z.object({
    ...tutorialBase,
    type: z.literal('iframe'),
    content: z.string(),
    iframeSrc: z.url({ protocol: /^https$/ }),
  }),
]);
export type Tutorial = z.infer<typeof Tutorial>;
