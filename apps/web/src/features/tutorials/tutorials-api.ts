import type { Tutorial } from '@portfolio/types';
import { guardedSchema } from '@portfolio/types/client';

import { http } from '../../lib/http';

const isString = (value: unknown): value is string => typeof value === 'string';

function isTutorial(value: unknown): value is Tutorial {
  if (
    typeof value !== 'object' ||
    value === null ||
    !('id' in value && 'title' in value && 'section' in value && 'type' in value) ||
    !('content' in value && isString(value.content))
  ) {
    return false;
  }
  const { id, title, section, type } = value;
  const isKnown =
    isString(id) &&
    isString(title) &&
    (section === 'cpp' || section === 'unreal') &&
    (type === 'code' || type === 'markdown' || type === 'iframe');
  return isKnown && (type !== 'iframe' || ('iframeSrc' in value && isString(value.iframeSrc)));
}

/** Whether a value is a list of tutorials (zod-free: the data comes from this site's server). */
export function isTutorials(value: unknown): value is Tutorial[] {
  return Array.isArray(value) && value.every(isTutorial);
}

const TutorialsAnswer = guardedSchema(
  'tutorials',
  (value: unknown): value is { tutorials: Tutorial[] } =>
    typeof value === 'object' &&
    value !== null &&
    'tutorials' in value &&
    isTutorials(value.tutorials),
);

/** `GET /api/tutorials`: the published tutorials, in the owner's order. */
export async function listTutorials(signal?: AbortSignal): Promise<Tutorial[]> {
  return (await http.get('/api/tutorials', TutorialsAnswer, signal)).tutorials;
}
