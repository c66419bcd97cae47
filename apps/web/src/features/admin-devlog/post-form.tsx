import { type AdminPost, POST_STATUSES, type PostStatus } from '@portfolio/types/devlog';
import { type FormEvent, useCallback, useRef, useState } from 'react';

import { FormField, FormGroup, FormRow } from '../../ui/form-field';
import { pause, useResource } from '../../ui/use-resource';
import { PostArticle, PostBody } from '../devlog';
import { previewPost } from './admin-devlog-api';
import { listAdminGames } from '../admin-games';
import { MediaUpload } from '../admin-media';

/** The editor's fields, as the inputs hold them (text; the date as datetime-local's value). */
export interface PostFormValues {
  title: string;
  slug: string;
  body: string;
  summary: string;
  gameId: string;
  coverImage: string;
  /** `YYYY-MM-DDTHH:mm` in the browser's time zone, '' for none. */
  publishedAt: string;
}

export const EMPTY_POST: PostFormValues = {
  title: '',
  slug: '',
  body: '',
  summary: '',
  gameId: '',
  coverImage: '',
  publishedAt: '',
};

export const STATUS_LABELS: Record<PostStatus, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  published: 'Published',
};
export { POST_STATUSES };

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time as datetime-local's value in this browser's time zone. */
export function toLocalInput(iso: string | null): string {
  if (!iso) {
    return '';
  }
  const date = new Date(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(
    date.getHours(),
  )}:${pad(date.getMinutes())}`;
}

/** datetime-local's value (local time) as ISO 8601, null for none. */
export function fromLocalInput(value: string): string | null {
  if (!value) {
    return null;
  }
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export function valuesOf(post: AdminPost): PostFormValues {
  return {
    title: post.title,
    slug: post.slug,
    body: post.body,
    summary: post.summary ?? '',
    gameId: post.gameId ?? '',
    coverImage: post.coverImage ?? '',
    publishedAt: toLocalInput(post.publishedAt),
  };
}

/** The request fields of the form's values ('' = none; an empty slug is made from the title). */
export function fieldsOf(values: PostFormValues) {
  return {
    title: values.title.trim(),
    ...(values.slug.trim() ? { slug: values.slug.trim() } : {}),
    body: values.body,
    summary: values.summary.trim() || null,
    gameId: values.gameId || null,
    coverImage: values.coverImage.trim() || null,
    publishedAt: fromLocalInput(values.publishedAt),
  };
}

/** How long the preview waits after the last key before rendering the body again. */
export const PREVIEW_DELAY_MS = 250;

/**
 * The body as the post page will show it: rendered by the server, the page's own renderer, a
 * moment after typing stops (the last rendering stays meanwhile, or when a request fails).
 */
function usePreviewHtml(body: string): string {
  const load = useCallback(
    async (signal: AbortSignal) => {
      await pause(PREVIEW_DELAY_MS, signal);
      return previewPost(body);
    },
    [body],
  );
  return useResource(load, 'Failed to render the preview', { isKeptWhileLoading: true }).data ?? '';
}

interface PostFormProps {
  initial: PostFormValues;
  /** The buttons under the form; each gets the current values. */
  actions: Array<{
    label: string;
    busyLabel: string;
    isPrimary?: boolean;
    onRun: (values: PostFormValues) => Promise<void>;
  }>;
}

/**
 * The post editor: title, slug, summary, game, publish date, cover, and the markdown body with a
 * live preview through the public page's own component (what the preview shows is what the page
 * will). Images are uploaded beside the cover field and "Insert image" (or typed in by address).
 */
export function PostForm({ initial, actions }: PostFormProps) {
  const [values, setValues] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  // a failed list only leaves the choice at "No game" (and the post's own game id)
  const games = useResource(loadGames, 'Failed to load the games').data ?? [];
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const html = usePreviewHtml(values.body);

  const set = (key: keyof PostFormValues) => (value: string) =>
    setValues((current) => ({ ...current, [key]: value }));

  const run = async (action: PostFormProps['actions'][number]) => {
    if (!values.title.trim()) {
      setError('Title: must not be empty');
      return;
    }
    setError(null);
    setBusy(action.label);
    try {
      await action.onRun(values);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(null);
    }
  };

  const insertMarkdown = (markdown: string) => {
    const area = bodyRef.current;
    const at = area ? area.selectionStart : values.body.length;
    const before = values.body.slice(0, at);
    const after = values.body.slice(at);
    const glue =
      before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
    setValues((current) => ({ ...current, body: `${before}${glue}${markdown}\n\n${after}` }));
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const primary = actions.find((action) => action.isPrimary) ?? actions[0];
    if (primary) {
      void run(primary);
    }
  };

  return (
    <div className="post-editor">
      <form className="form post-form" onSubmit={handleSubmit} noValidate>
        <PostFields values={values} games={games} set={set} />
        <InsertImage onInsert={insertMarkdown} onError={setError} />
        <FormField id="post-body" label="Body (markdown)">
          {(control) => (
            <textarea
              {...control}
              ref={bodyRef}
              className="post-form__body"
              value={values.body}
              onChange={(event) => set('body')(event.target.value)}
              rows={16}
            />
          )}
        </FormField>
        {error ? (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="post-form__actions">
          {actions.map((action) => (
            <button
              key={action.label}
              type={action.isPrimary ? 'submit' : 'button'}
              className={`button ${action.isPrimary ? 'button--primary' : 'button--secondary'}`}
              disabled={busy !== null}
              onClick={action.isPrimary ? undefined : () => void run(action)}
            >
              {busy === action.label ? action.busyLabel : action.label}
            </button>
          ))}
        </div>
      </form>
      <section className="post-editor__preview" aria-labelledby="post-preview-title">
        <h2 id="post-preview-title">Preview</h2>
        <div className="post-editor__frame">
          <PostArticle
            title={values.title || 'Untitled'}
            publishedAt={fromLocalInput(values.publishedAt)}
            gameId={values.gameId || null}
            gameTitle={games.find((game) => game.id === values.gameId)?.title ?? null}
            coverImage={values.coverImage.trim() || null}
          >
            <PostBody html={html} />
          </PostArticle>
        </div>
      </section>
    </div>
  );
}

interface GameChoice {
  id: string;
  title: string;
}

const loadGames = async (signal: AbortSignal): Promise<GameChoice[]> =>
  (await listAdminGames(signal)).games.map(({ id, title }) => ({ id, title }));

interface PostFieldsProps {
  values: PostFormValues;
  games: readonly GameChoice[];
  set: (key: keyof PostFormValues) => (value: string) => void;
}

/** The post's own fields: title, slug, summary, game, publish date and cover. */
function PostFields({ values, games, set }: PostFieldsProps) {
  return (
    <>
      <FormField
        id="post-title-input"
        label="Title"
        value={values.title}
        onValueChange={set('title')}
        required
        maxLength={200}
      />
      <FormField
        id="post-slug"
        label="Slug"
        value={values.slug}
        onValueChange={set('slug')}
        maxLength={100}
        hint={`The address: /devlog/${values.slug || 'made-from-the-title'}. Lower-case letters, digits and dashes; empty makes one from the title.`}
      />
      <FormField
        id="post-summary"
        label="Summary"
        hint="Shown in lists, the feed and link previews; empty uses the body's first words."
      >
        {(control) => (
          <textarea
            {...control}
            value={values.summary}
            onChange={(event) => set('summary')(event.target.value)}
            maxLength={300}
            rows={2}
          />
        )}
      </FormField>
      <FormRow>
        <FormField id="post-game" label="Game">
          {(control) => (
            <select
              {...control}
              value={values.gameId}
              onChange={(event) => set('gameId')(event.target.value)}
            >
              <option value="">No game</option>
              {games.map((game) => (
                <option key={game.id} value={game.id}>
                  {game.title}
                </option>
              ))}
              {values.gameId && !games.some((game) => game.id === values.gameId) ? (
                <option value={values.gameId}>{values.gameId}</option>
              ) : null}
            </select>
          )}
        </FormField>
        <FormField
          id="post-date"
          label="Publish date"
          type="datetime-local"
          value={values.publishedAt}
          onValueChange={set('publishedAt')}
          hint="Empty: the moment it is published. A later date schedules the post."
        />
      </FormRow>
      <FormField
        id="post-cover"
        label="Cover image address"
        value={values.coverImage}
        onValueChange={set('coverImage')}
        placeholder="/assets/… or https://…"
        aria-describedby="post-cover-hint"
      >
        <p id="post-cover-hint" className="form__hint form__hint--note">
          Shown above the post and on its link previews (1200 × 630 fits best).
        </p>
        <MediaUpload
          label="Upload a cover image"
          onUploaded={(item) => set('coverImage')(item.url)}
        />
      </FormField>
    </>
  );
}

interface InsertImageProps {
  /** Puts the image's markdown into the body at the cursor. */
  onInsert: (markdown: string) => void;
  onError: (message: string | null) => void;
}

/** "Insert image": an address (typed or uploaded) and a description become markdown. */
function InsertImage({ onInsert, onError }: InsertImageProps) {
  const [image, setImage] = useState({ url: '', alt: '' });
  const insertImage = () => {
    const url = image.url.trim();
    if (!url) {
      onError('Image address: must not be empty');
      return;
    }
    onError(null);
    onInsert(
      `![${image.alt.replace(/[[\]]/g, '')}](${url.replace(/[()\s]/g, encodeURIComponent)})`,
    );
    setImage({ url: '', alt: '' });
  };
  return (
    <FormGroup legend="Insert image">
      <FormRow>
        <FormField
          id="post-image-url"
          label="Image address"
          value={image.url}
          onValueChange={(url) => setImage({ ...image, url })}
          placeholder="/assets/… or https://…"
        />
        <FormField
          id="post-image-alt"
          label="Image description"
          value={image.alt}
          onValueChange={(alt) => setImage({ ...image, alt })}
        />
      </FormRow>
      <MediaUpload
        label="Upload an image"
        onUploaded={(item) => setImage((current) => ({ ...current, url: item.url }))}
      />
      <div className="form__actions">
        <button type="button" className="button button--secondary" onClick={insertImage}>
          Insert image
        </button>
      </div>
    </FormGroup>
  );
}
