import { useId, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { consoleRequest, ROLES, type Role } from '../api';
import {
  ConfirmDialog,
  ErrorMessage,
  fieldError,
  formatDateTime,
  Loading,
  Notice,
  PageTitle,
  SecretReveal,
  TextField,
  useAction,
  useLoad,
} from '../components';
import { useSession } from '../session';
import { describeError } from '../../shared/api';

interface Member {
  userId: string;
  email: string;
  displayName: string;
  role: Role;
  joinedAt: string;
}
interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  expiresAt: string;
}
interface Members {
  items: Member[];
  invitations: PendingInvitation[];
}

interface Removed {
  revokedKeys: number;
  cancelledInvitations: number;
  disabledWebhooks: number;
  disconnectedApps: number;
}

/** What a removal did, in one sentence per kind of thing it ended (`name` null: the person removed themselves). */
function removedMessage(name: string | null, fundName: string, r: Removed): string {
  const parts = [
    name === null
      ? `You left ${fundName}; ${r.revokedKeys} key(s) you held or minted on it are revoked.`
      : `${name} was removed; ${r.revokedKeys} key(s) they held or minted on this fund are revoked.`,
  ];
  const who = name === null ? 'you' : 'they';
  if (r.cancelledInvitations) parts.push(`${r.cancelledInvitations} invitation(s) ${who} sent are cancelled.`);
  if (r.disabledWebhooks)
    parts.push(`${r.disabledWebhooks} webhook(s) ${who} created are disabled: check, rotate the secret, re-enable.`);
  if (r.disconnectedApps) parts.push(`${r.disconnectedApps} app(s) ${who} connected are disconnected.`);
  return parts.join(' ');
}

const ROLE_HELP =
  'viewer reads; analyst also proposes; manager also reviews proposals and publishes NAV; admin also manages keys, webhooks and members.';

function RoleSelect({
  value,
  onChange,
  label,
  error,
}: {
  value: Role;
  onChange(r: Role): void;
  label: string;
  error?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value as Role)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {ROLES.map((r) => (
          <option key={r}>{r}</option>
        ))}
      </select>
      {error && (
        <div className="field-error" id={`${id}-error`}>
          {error}
        </div>
      )}
    </div>
  );
}

function InviteForm({ onInvited }: { onInvited(): void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [link, setLink] = useState<string | null>(null);
  const { error, busy, run } = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const r = await run(() =>
      consoleRequest<{ inviteUrl: string; token: string }>('/api/v1/console/invitations', {
        method: 'POST',
        body: { email, role },
      }),
    );
    if (r) {
      setLink(r.inviteUrl ?? `${location.origin}/console/invite/${r.token}`);
      setEmail('');
      onInvited();
    }
  };
  return (
    <form className="panel" onSubmit={submit} noValidate aria-labelledby="invite-title">
      <h2 id="invite-title">Invite a person</h2>
      {link && <SecretReveal label="Invitation link" value={link} testId="invite-link" onDone={() => setLink(null)} />}
      <ErrorMessage error={error} title="The invitation was not created." />
      <TextField
        label="Email"
        type="email"
        value={email}
        onChange={setEmail}
        required
        error={fieldError(error, 'email')}
        help="Send them the link; it works once, for 7 days."
      />
      <RoleSelect label="Role" value={role} onChange={setRole} error={fieldError(error, 'role')} />
      <p className="help muted small">{ROLE_HELP}</p>
      <button type="submit" disabled={busy}>
        Create invitation
      </button>
    </form>
  );
}

function MemberRow({
  m,
  isMe,
  onChanged,
  onRemove,
}: {
  m: Member;
  isMe: boolean;
  onChanged(msg: string, concernsMe: boolean): void;
  onRemove(m: Member): void;
}) {
  const [role, setRole] = useState<Role>(m.role);
  const action = useAction();
  const id = useId();
  const fundName = useSession().membership?.fund.name ?? 'this fund';
  const save = async () => {
    if (
      await action.run(() => consoleRequest(`/api/v1/console/members/${m.userId}`, { method: 'PATCH', body: { role } }))
    )
      onChanged(isMe ? `You are now ${role} on ${fundName}.` : `${m.displayName} is now ${role}.`, isMe);
  };
  return (
    <tr data-testid="member-row">
      <td>
        {m.displayName}
        {isMe && <span className="muted small"> (you)</span>}
        <div className="muted small">{m.email}</div>
      </td>
      <td>
        <label htmlFor={id} className="visually-hidden">
          Role of {m.displayName}
        </label>
        <select id={id} value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {ROLES.map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
        <ErrorMessage error={action.error} title="Role not changed." />
      </td>
      <td className="nowrap">{formatDateTime(m.joinedAt)}</td>
      <td className="actions-cell">
        <button type="button" className="secondary small" disabled={role === m.role || action.busy} onClick={save}>
          Save role
        </button>{' '}
        <button
          type="button"
          className="danger small"
          onClick={() => onRemove(m)}
          aria-label={`Remove ${m.displayName}`}
        >
          Remove
        </button>
      </td>
    </tr>
  );
}

/** Pending invitations, each with a Cancel button: its link stops working at once. */
function PendingInvitations({
  invitations,
  onCancelled,
  onReload,
}: {
  invitations: PendingInvitation[];
  onCancelled(msg: string): void;
  onReload(): void;
}) {
  const cancel = useAction();
  const run = async (i: PendingInvitation) => {
    const path = `/api/v1/console/members/invitations/${encodeURIComponent(i.id)}`;
    if (await cancel.run(() => consoleRequest(path, { method: 'DELETE' }).then(() => true)))
      onCancelled(`The invitation for ${i.email} is cancelled; its link no longer works.`);
    else onReload(); // e.g. accepted meanwhile (409): the list shows it as it is now
  };
  return (
    <>
      <h3>Pending invitations</h3>
      <ErrorMessage error={cancel.error} title="The invitation was not cancelled." />
      <ul>
        {invitations.map((i) => (
          <li key={i.id} data-testid="pending-invitation">
            {i.email} as {i.role}, until {formatDateTime(i.expiresAt)}{' '}
            <button
              type="button"
              className="secondary small"
              disabled={cancel.busy}
              onClick={() => run(i)}
              aria-label={`Cancel the invitation for ${i.email}`}
            >
              Cancel
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

export function MembersPage() {
  const { session, membership, refresh, setNotice } = useSession();
  const location = useLocation();
  const members = useLoad(() => consoleRequest<Members>('/api/v1/console/members'), []);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const remove = useAction();
  const changed = (msg: string, concernsMe = false) => {
    if (!concernsMe) {
      setMessage(msg);
      members.reload();
      return;
    }
    // the signed-in person's own role changed or ended: the session's memberships (the pages listed,
    // the fund switcher) are re-read, so the console stops offering what the server now refuses (an
    // admin's own change always ends their admin role here, so the members list is not theirs to
    // reload). This page is then replaced (or remounted on another fund): the message is the session's.
    setNotice(msg, location.key);
    refresh().catch((err: unknown) =>
      setNotice(
        `${msg} Your session could not be re-read (${describeError(err)}): reload the page to see what you may do now.`,
        location.key,
      ),
    );
  };
  const confirmRemove = async () => {
    if (!removing) return;
    const done = await remove.run(() =>
      consoleRequest<Removed>(`/api/v1/console/members/${removing.userId}`, { method: 'DELETE' }),
    );
    if (done) {
      setRemoving(null);
      const me = removing.userId === session?.user.id;
      changed(removedMessage(me ? null : removing.displayName, membership?.fund.name ?? 'the fund', done), me);
    }
  };
  return (
    <>
      <PageTitle title="Members">Members of {membership?.fund.name}</PageTitle>
      <InviteForm onInvited={members.reload} />
      <section className="panel" aria-labelledby="members-title">
        <h2 id="members-title">People</h2>
        {message && <Notice>{message}</Notice>}
        <ErrorMessage error={members.error} title="The members could not be loaded." />
        {members.loading && !members.data && <Loading what="members" />}
        {members.data && (
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Members">
            <table>
              <thead>
                <tr>
                  <th scope="col">Person</th>
                  <th scope="col">Role</th>
                  <th scope="col">Joined</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {members.data.items.map((m) => (
                  <MemberRow
                    key={`${m.userId}:${m.role}`}
                    m={m}
                    isMe={m.userId === session?.user.id}
                    onChanged={changed}
                    onRemove={(x) => {
                      remove.setError(null);
                      setRemoving(x);
                    }}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {members.data && members.data.invitations.length > 0 && (
          <PendingInvitations invitations={members.data.invitations} onCancelled={changed} onReload={members.reload} />
        )}
      </section>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.displayName ?? ''}?`}
        confirmLabel="Remove member"
        danger
        busy={remove.busy}
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(null)}
      >
        <p>
          They lose access to {membership?.fund.name}: every key they hold or minted on it is revoked, the invitations
          they sent that are still open are cancelled, and the webhooks they created are disabled, at once.
        </p>
        <ErrorMessage error={remove.error} title="Not removed." />
      </ConfirmDialog>
    </>
  );
}
