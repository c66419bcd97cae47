import { SiteTextsRequest } from '@portfolio/types/content';
import { type FormEvent, useId, useState } from 'react';

import { serverMessageOr } from '../../lib/server-message';
import { getSiteTexts, updateSiteTexts } from './admin-content-api';
import { ContentHistory } from './content-history';
import { type FieldErrors, fieldErrorsOf } from '../../lib/zod-issues';
import { FormField, FormGroup, fieldOf } from '../../ui/form-field';
import { useResource } from '../../ui/use-resource';

const CARD_NAMES = ['Games', 'Gallery', 'Tutorials'] as const;

/**
 * The Home & site tab: the site's name (top bar, footer, page titles) and the home page's intro
 * and three cards. Saved texts show on the next page load of every visitor.
 */
export function SiteTextsTab() {
  const texts = useResource(getSiteTexts, 'Failed to load the site texts');
  if (texts.error) {
    return (
      <p className="alert alert--error" role="alert">
        {texts.error}
      </p>
    );
  }
  if (!texts.data) {
    return <p className="admin-muted">Loading...</p>;
  }
  return <SiteTextsForm initial={texts.data} />;
}

/** The texts as loaded, edited and saved. */
function SiteTextsForm({ initial }: { initial: SiteTextsRequest }) {
  const formId = useId();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const [saved, setSaved] = useState(0);

  const setHome = (patch: Partial<SiteTextsRequest['home']>) =>
    setValues({ ...values, home: { ...values.home, ...patch } });
  const setCard = (index: number, patch: Partial<SiteTextsRequest['home']['cards'][0]>) => {
    const cards = values.home.cards.map((card, at) =>
      at === index ? { ...card, ...patch } : card,
    );
    const [games, gallery, tutorials] = cards;
    if (games && gallery && tutorials) {
      setHome({ cards: [games, gallery, tutorials] });
    }
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setNotice(null);
    setServerError(null);
    const checked = SiteTextsRequest.safeParse(values);
    if (!checked.success) {
      const found = fieldErrorsOf(checked.error.issues);
      setErrors(found);
      const first = Object.keys(found)[0];
      if (first) {
        document.getElementById(`${formId}-${first.replace(/\./g, '-')}`)?.focus();
      }
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await updateSiteTexts(checked.data);
      setNotice('Saved: visitors see the new texts on their next page load.');
      setSaved((count) => count + 1);
    } catch (failure) {
      setServerError(serverMessageOr(failure, 'Failed to save the site texts'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="content-section">
      <div className="admin-games__section-header">
        <h2>Home &amp; site</h2>
      </div>
      {notice ? (
        <p className="notice notice--success" role="status">
          {notice}
        </p>
      ) : null}
      <form
        className="form content-form admin-panel"
        onSubmit={(event) => void handleSubmit(event)}
        noValidate
        aria-label="Home and site texts"
      >
        <FormField {...fieldOf(formId, errors, 'siteName')} label="Site name">
          {(props) => (
            <input
              {...props}
              value={values.siteName}
              onChange={(event) => setValues({ ...values, siteName: event.target.value })}
            />
          )}
        </FormField>
        <FormField {...fieldOf(formId, errors, 'home.title')} label="Home intro title">
          {(props) => (
            <input
              {...props}
              value={values.home.title}
              onChange={(event) => setHome({ title: event.target.value })}
            />
          )}
        </FormField>
        <FormField {...fieldOf(formId, errors, 'home.lead')} label="Home intro text">
          {(props) => (
            <textarea
              {...props}
              rows={3}
              value={values.home.lead}
              onChange={(event) => setHome({ lead: event.target.value })}
            />
          )}
        </FormField>
        {values.home.cards.map((card, index) => (
          <FormGroup key={CARD_NAMES[index]} legend={`Card to ${CARD_NAMES[index]}`}>
            <FormField {...fieldOf(formId, errors, `home.cards.${index}.title`)} label="Title">
              {(props) => (
                <input
                  {...props}
                  value={card.title}
                  onChange={(event) => setCard(index, { title: event.target.value })}
                />
              )}
            </FormField>
            <FormField {...fieldOf(formId, errors, `home.cards.${index}.text`)} label="Text">
              {(props) => (
                <textarea
                  {...props}
                  rows={2}
                  value={card.text}
                  onChange={(event) => setCard(index, { text: event.target.value })}
                />
              )}
            </FormField>
          </FormGroup>
        ))}
        {serverError ? (
          <p className="alert alert--error" role="alert">
            {serverError}
          </p>
        ) : null}
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={isBusy}>
            {isBusy ? 'Saving...' : 'Save texts'}
          </button>
        </div>
      </form>
      <ContentHistory kind="site" version={String(saved)} />
    </div>
  );
}
