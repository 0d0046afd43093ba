import { useId, useState, type FormEvent } from 'react';
import { consoleRequest } from '../api';
import {
  ConfirmDialog,
  ErrorMessage,
  fieldError,
  Loading,
  Notice,
  PageTitle,
  SecretReveal,
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

function CreateWebhookForm({ onCreated }: { onCreated(hook: Webhook & { signingSecret: string }): void }) {
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<string[]>(['proposal.approved']);
  const [description, setDescription] = useState('');
  const { error, busy, run } = useAction();
  const typesError = fieldError(error, 'eventTypes');
  const typesErrorId = useId();
  const ids = useId();
  const fields = {
    url: { label: 'Endpoint URL', id: `${ids}-url` },
    eventTypes: { label: 'Event types', id: `${ids}-type-0` },
    description: { label: 'Description', id: `${ids}-description` },
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return; // the button stays focusable while busy (aria-disabled): a second press is ignored here
    const body = { url, eventTypes: types, ...(description ? { description } : {}) };
    const created = await run(() =>
      consoleRequest<Webhook & { signingSecret: string }>(HOOKS, { method: 'POST', body }),
    );
    if (created) {
      onCreated(created);
      setUrl('');
      setDescription('');
    }
  };
  return (
    <form className="panel" onSubmit={submit} noValidate aria-labelledby="new-hook">
      <h2 id="new-hook">Subscribe a URL</h2>
      <ErrorMessage error={error} title="The subscription was not created." fields={fields} focus />
      <TextField
        id={fields.url.id}
        label="Endpoint URL"
        type="url"
        value={url}
        onChange={setUrl}
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
              checked={types.includes(t)}
              aria-invalid={typesError ? true : undefined}
              onChange={(e) => setTypes((x) => (e.target.checked ? [...x, t] : x.filter((y) => y !== t)))}
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
        value={description}
        onChange={setDescription}
        maxLength={500}
        error={fieldError(error, 'description')}
      />
      <div className="actions">
        <button type="submit" aria-disabled={busy || undefined} aria-busy={busy || undefined}>
          Create subscription
        </button>
      </div>
    </form>
  );
}

function WebhookCard({ hook, onChanged }: { hook: Webhook; onChanged(): void }) {
  const [secret, setSecret] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [showDeliveries, setShowDeliveries] = useState(false);
  // bumped when this card queues a delivery, so open deliveries show it
  const [queued, setQueued] = useState(0);
  const [confirm, setConfirm] = useState<'rotate' | 'delete' | null>(null);
  const action = useAction();
  const base = `${HOOKS}/${hook.id}`;

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
    if (r) onChanged();
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
      <div className="actions">
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
      <h2>Subscriptions</h2>
      <ErrorMessage error={hooks.error} title="The subscriptions could not be loaded." />
      {hooks.loading && !hooks.data && <Loading what="subscriptions" />}
      {hooks.data?.items.length === 0 && <p className="muted">No subscriptions yet.</p>}
      {hooks.data?.items.map((h) => (
        <WebhookCard key={h.id} hook={h} onChanged={hooks.reload} />
      ))}
    </>
  );
}
