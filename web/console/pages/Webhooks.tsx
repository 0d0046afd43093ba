import { useEffect, useId, useRef, useState, type FormEvent, type Ref } from 'react';
import type { ApiError } from '../../shared/api';
import { consoleRequest } from '../api';
import {
  ConfirmDialog,
  ErrorMessage,
  fieldError,
  formProblem,
  type FieldTargets,
  Loading,
  Notice,
  PageTitle,
  SecretReveal,
  SubmitButton,
  TextField,
  useAction,
  useLoad,
  formatDateTime,
} from '../components';
import { Deliveries } from './WebhookDeliveries';

export const EVENT_TYPES = ['nav.published', 'report.distributed', 'proposal.approved', 'proposal.rejected'];
const HOOKS = '/api/v1/webhooks';

export interface Webhook {
  id: string;
  url: string;
  eventTypes: string[];
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
}

/** What the subscription form holds: the same fields for Create and Edit. */
interface HookDraft {
  url: string;
  types: string[];
  description: string;
}

/** The subscription form's fields: the API's names, their on-screen labels and the controls to focus. */
function useHookFields(): FieldTargets {
  const ids = useId();
  return {
    url: { label: 'Endpoint URL', id: `${ids}-url` },
    eventTypes: { label: 'Event types', id: `${ids}-type-0` },
    description: { label: 'Description', id: `${ids}-description` },
  };
}

/** Endpoint URL, the event types group and the description, each with its error (Create and Edit). */
function WebhookFields({
  draft,
  onChange,
  error,
  fields,
  urlRef,
}: {
  draft: HookDraft;
  onChange(next: HookDraft): void;
  error: unknown;
  fields: FieldTargets;
  urlRef?: Ref<HTMLInputElement>;
}) {
  const typesError = fieldError(error, 'eventTypes');
  const typesErrorId = useId();
  const toggle = (t: string, on: boolean) =>
    onChange({ ...draft, types: on ? [...draft.types, t] : draft.types.filter((y) => y !== t) });
  return (
    <>
      <TextField
        id={fields.url.id}
        ref={urlRef}
        label="Endpoint URL"
        type="url"
        value={draft.url}
        onChange={(url) => onChange({ ...draft, url })}
        required
        placeholder="https://example.com/hooks/fundgate"
        error={fieldError(error, 'url')}
        help="Deliveries are signed (Standard Webhooks) and retried with back-off; a 410 answer disables the subscription."
      />
      <fieldset aria-describedby={typesError ? typesErrorId : undefined}>
        <legend>Event types</legend>
        {EVENT_TYPES.map((t, i) => (
          <label className="checkbox" key={t}>
            <input
              id={i === 0 ? fields.eventTypes.id : undefined}
              type="checkbox"
              checked={draft.types.includes(t)}
              aria-invalid={typesError ? true : undefined}
              onChange={(e) => toggle(t, e.target.checked)}
            />
            {t}
          </label>
        ))}
        {typesError && (
          <div className="field-error" id={typesErrorId}>
            {typesError}
          </div>
        )}
      </fieldset>
      <TextField
        id={fields.description.id}
        label="Description (optional)"
        value={draft.description}
        onChange={(description) => onChange({ ...draft, description })}
        maxLength={500}
        error={fieldError(error, 'description')}
      />
    </>
  );
}

function CreateWebhookForm({ onCreated }: { onCreated(hook: Webhook & { signingSecret: string }): void }) {
  const [draft, setDraft] = useState<HookDraft>({ url: '', types: ['proposal.approved'], description: '' });
  const { error, busy, run } = useAction();
  const fields = useHookFields();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return; // the button stays focusable while busy (aria-disabled): a second press is ignored here
    const { url, types, description } = draft;
    const body = { url, eventTypes: types, ...(description ? { description } : {}) };
    const created = await run(() =>
      consoleRequest<Webhook & { signingSecret: string }>(HOOKS, { method: 'POST', body }),
    );
    if (created) {
      onCreated(created);
      setDraft({ ...draft, url: '', description: '' });
    }
  };
  return (
    <form className="panel" onSubmit={submit} noValidate aria-labelledby="new-hook">
      <h2 id="new-hook">Subscribe a URL</h2>
      <ErrorMessage error={error} title="The subscription was not created." fields={fields} focus />
      <WebhookFields draft={draft} onChange={setDraft} error={error} fields={fields} />
      <div className="actions">
        <SubmitButton busy={busy}>Create subscription</SubmitButton>
      </div>
    </form>
  );
}

/**
 * What the page refuses before sending an edit, in Create's words (the API's PATCH checks the same
 * bounds, in class-validator's default messages).
 */
function draftProblem(draft: HookDraft): ApiError | null {
  if (!draft.url.trim() || draft.url.length > 2048)
    return formProblem('url', 'must be an http(s) URL of 1 to 2048 characters');
  if (draft.types.length === 0) return formProblem('eventTypes', 'must name at least one event type');
  return null;
}

/** A subscription's URL, event types and description changed in its card (the signing secret stays). */
function EditWebhookForm({ hook, onDone }: { hook: Webhook; onDone(saved: Webhook | null): void }) {
  const [draft, setDraft] = useState<HookDraft>({
    url: hook.url,
    types: hook.eventTypes,
    description: hook.description ?? '',
  });
  const { error, busy, run, setError } = useAction();
  const fields = useHookFields();
  const urlRef = useRef<HTMLInputElement>(null);
  // the form replaces the card's facts: the keyboard starts in its first field
  useEffect(() => urlRef.current?.focus(), []);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const refused = draftProblem(draft);
    if (refused) {
      setError(refused);
      return;
    }
    const { url, types, description } = draft;
    const body = { url, eventTypes: types, ...(description || hook.description ? { description } : {}) };
    const saved = await run(() => consoleRequest<Webhook>(`${HOOKS}/${hook.id}`, { method: 'PATCH', body }));
    if (saved) onDone(saved);
  };
  return (
    <form onSubmit={submit} noValidate aria-label={`Edit the subscription to ${hook.url}`}>
      <ErrorMessage error={error} title="The subscription was not saved." fields={fields} focus />
      <WebhookFields draft={draft} onChange={setDraft} error={error} fields={fields} urlRef={urlRef} />
      <div className="actions">
        <SubmitButton busy={busy}>Save</SubmitButton>
        <button type="button" className="secondary" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** What a subscription's card says about it. */
function WebhookFacts({ hook }: { hook: Webhook }) {
  return (
    <dl className="facts">
      <dt>Events</dt>
      <dd>{hook.eventTypes.join(', ')}</dd>
      {hook.description && (
        <>
          <dt>Description</dt>
          <dd>{hook.description}</dd>
        </>
      )}
      <dt>Status</dt>
      <dd>
        {hook.enabled ? (
          <span className="badge ok">enabled</span>
        ) : (
          <span className="badge bad">disabled{hook.disabledReason ? `: ${hook.disabledReason}` : ''}</span>
        )}
      </dd>
      <dt>Created</dt>
      <dd>{formatDateTime(hook.createdAt)}</dd>
      {hook.previousSecretExpiresAt && (
        <>
          <dt>Previous secret</dt>
          <dd>still signs until {formatDateTime(hook.previousSecretExpiresAt)} (rotated)</dd>
        </>
      )}
    </dl>
  );
}

function WebhookCard({ hook, onChanged, onDeleted }: { hook: Webhook; onChanged(): void; onDeleted(): void }) {
  const [secret, setSecret] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [showDeliveries, setShowDeliveries] = useState(false);
  // bumped when this card queues a delivery, so open deliveries show it
  const [queued, setQueued] = useState(0);
  const [confirm, setConfirm] = useState<'rotate' | 'delete' | null>(null);
  const action = useAction();
  const base = `${HOOKS}/${hook.id}`;
  const [editing, setEditing] = useState(false);
  const editRef = useRef<HTMLButtonElement>(null);
  // after Save or Cancel the form is gone: the keyboard goes back to the Edit button that opened it
  const backToEdit = useRef(false);
  useEffect(() => {
    if (!editing && backToEdit.current) {
      backToEdit.current = false;
      editRef.current?.focus();
    }
  }, [editing]);
  const edited = (saved: Webhook | null) => {
    backToEdit.current = true;
    setEditing(false);
    if (saved) {
      setMessage(
        `Saved: deliveries go to ${saved.url} for ${saved.eventTypes.join(', ')}. The signing secret is unchanged.`,
      );
      onChanged();
    }
  };

  const rotate = async () => {
    const r = await action.run(() =>
      consoleRequest<{ signingSecret: string; previousSecretExpiresAt: string }>(`${base}/rotate-secret`, {
        method: 'POST',
      }),
    );
    setConfirm(null);
    if (r) {
      setSecret(r.signingSecret);
      setMessage(`New secret issued. The previous one also signs until ${formatDateTime(r.previousSecretExpiresAt)}.`);
      onChanged();
    }
  };
  const test = async () => {
    const r = await action.run(() => consoleRequest<{ eventId: string }>(`${base}/test`, { method: 'POST' }));
    if (r) {
      setMessage(`Test event ${r.eventId} queued. Open the deliveries to follow it.`);
      setQueued((n) => n + 1);
      onChanged();
    }
  };
  const remove = async () => {
    const r = await action.run(() => consoleRequest(base, { method: 'DELETE' }).then(() => true));
    setConfirm(null);
    if (r) onDeleted();
  };
  const enable = async () => {
    if (await action.run(() => consoleRequest(base, { method: 'PATCH', body: { enabled: !hook.enabled } })))
      onChanged();
  };

  return (
    <article className="panel" aria-labelledby={`hook-${hook.id}`} data-testid="webhook">
      <h3 id={`hook-${hook.id}`} className="mono">
        {hook.url}
      </h3>
      {editing ? <EditWebhookForm hook={hook} onDone={edited} /> : <WebhookFacts hook={hook} />}
      {secret && (
        <SecretReveal
          label="New signing secret"
          value={secret}
          testId="webhook-secret"
          onDone={() => setSecret(null)}
        />
      )}
      {message && <Notice>{message}</Notice>}
      <ErrorMessage error={action.error} />
      {!editing && (
        <div className="actions">
          <button
            type="button"
            className="secondary"
            ref={editRef}
            onClick={() => {
              setMessage(null);
              setEditing(true);
            }}
          >
            Edit
          </button>
          <button type="button" className="secondary" onClick={test} disabled={action.busy}>
            Send test
          </button>
          <button type="button" className="secondary" onClick={() => setConfirm('rotate')}>
            Rotate secret
          </button>
          <button type="button" className="secondary" onClick={enable} disabled={action.busy}>
            {hook.enabled ? 'Pause' : 'Re-enable'}
          </button>
          <button
            type="button"
            className="secondary"
            aria-expanded={showDeliveries}
            onClick={() => setShowDeliveries((x) => !x)}
          >
            {showDeliveries ? 'Hide deliveries' : 'Deliveries'}
          </button>
          <button type="button" className="danger" onClick={() => setConfirm('delete')}>
            Delete
          </button>
        </div>
      )}
      {showDeliveries && (
        <Deliveries
          webhookId={hook.id}
          url={hook.url}
          enabled={hook.enabled}
          refreshKey={queued}
          onRefresh={onChanged}
        />
      )}
      <ConfirmDialog
        open={confirm === 'rotate'}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        busy={action.busy}
        onConfirm={rotate}
        onCancel={() => setConfirm(null)}
      >
        <p>
          A new secret is shown once. The current one keeps signing for 24 hours, so the receiver can switch without
          missing deliveries.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'delete'}
        title="Delete this subscription?"
        confirmLabel="Delete subscription"
        danger
        busy={action.busy}
        onConfirm={remove}
        onCancel={() => setConfirm(null)}
      >
        <p>
          Deliveries to <span className="mono">{hook.url}</span> stop, and pending ones are cancelled.
        </p>
      </ConfirmDialog>
    </article>
  );
}

export function WebhooksPage() {
  const hooks = useLoad(() => consoleRequest<{ items: Webhook[] }>(HOOKS), []);
  const [created, setCreated] = useState<{ url: string; signingSecret: string } | null>(null);
  // a deleted card takes its buttons with it: the keyboard goes to the list's heading, which says what happened
  const [deleted, setDeleted] = useState<{ url: string } | null>(null);
  const listRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (deleted) listRef.current?.focus();
  }, [deleted]);
  return (
    <>
      <PageTitle title="Webhooks">Webhooks</PageTitle>
      {created && (
        <SecretReveal
          label={`Signing secret for ${created.url}`}
          value={created.signingSecret}
          testId="webhook-secret"
          onDone={() => setCreated(null)}
        />
      )}
      <CreateWebhookForm
        onCreated={(h) => {
          setCreated(h);
          hooks.reload();
        }}
      />
      <h2 ref={listRef} tabIndex={-1}>
        Subscriptions
      </h2>
      {deleted && <Notice>The subscription to {deleted.url} was deleted.</Notice>}
      <ErrorMessage error={hooks.error} title="The subscriptions could not be loaded." />
      {hooks.loading && !hooks.data && <Loading what="subscriptions" />}
      {hooks.data?.items.length === 0 && <p className="muted">No subscriptions yet.</p>}
      {hooks.data?.items.map((h) => (
        <WebhookCard
          key={h.id}
          hook={h}
          onChanged={hooks.reload}
          onDeleted={() => {
            setDeleted({ url: h.url });
            hooks.reload();
          }}
        />
      ))}
    </>
  );
}
