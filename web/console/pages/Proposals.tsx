import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { consoleRequest, query, type Page } from '../api';
import { ApiError } from '../../shared/api';
import {
  ConfirmDialog,
  ErrorMessage,
  fieldError,
  formatDateTime,
  Loading,
  Notice,
  PageTitle,
  useAction,
  useLoad,
} from '../components';
import { ProposalPayloadView, type ProposalPayload } from './ProposalPayload';
import { StepUp } from './StepUp';
import { useSession } from '../session';

interface Actor {
  accountId: string;
  keyId?: string | null;
  displayName?: string | null;
  userId?: string | null;
}

interface Proposal {
  id: string;
  kind: string;
  status: string;
  payload: ProposalPayload;
  proposedBy: Actor;
  createdAt: string;
  decidedAt: string | null;
  decidedBy: Actor | null;
  decisionNote: string | null;
  executionRef: string | null;
  withdrawnAt: string | null;
  withdrawnBy: Actor | null;
  withdrawalNote: string | null;
}

const BASE = '/api/v1/admin/proposals';
const KIND_TITLES: Record<string, string> = {
  'journal-entry': 'Journal entry',
  expense: 'Expense',
  'capital-activity': 'Capital activity',
  'lp-report': 'LP report distribution',
};

/** What a person does to a pending proposal here: a checker approves or rejects, its maker withdraws it. */
type Action = 'approve' | 'reject' | 'withdraw';

const ACTIONS: Record<
  Action,
  {
    verb: string;
    confirm: string;
    danger: boolean;
    field: 'note' | 'reason';
    label: string;
    explain: string;
    failed: string;
  }
> = {
  approve: {
    verb: 'Approve',
    confirm: 'Approve proposal',
    danger: false,
    field: 'note',
    label: 'Note (optional)',
    explain: 'Approval executes it in the books now and notifies the webhooks.',
    failed: 'The proposal was not approved.',
  },
  reject: {
    verb: 'Reject',
    confirm: 'Reject proposal',
    danger: true,
    field: 'reason',
    label: 'Reason',
    explain: 'The proposer sees the reason.',
    failed: 'The proposal was not rejected.',
  },
  withdraw: {
    verb: 'Withdraw',
    confirm: 'Withdraw proposal',
    danger: true,
    field: 'note',
    label: 'Note (optional)',
    explain:
      'It leaves the review queue and can no longer be approved or rejected; nothing is booked. Reviewers see it as withdrawn by you.',
    failed: 'The proposal was not withdrawn.',
  },
};

/** Approve and reject are review routes; a maker withdraws through the console's own route. */
const actionUrl = (id: string, action: Action): string =>
  action === 'withdraw' ? `/api/v1/console/proposals/${id}/withdraw` : `${BASE}/${id}/${action}`;

function actorName(a: Actor | null, myUserId: string | undefined): string {
  if (!a) return '—';
  if (a.userId && a.userId === myUserId) return 'you';
  return a.displayName ?? (a.userId ? `person ${a.userId.slice(0, 8)}` : `service ${a.accountId.slice(0, 8)}`);
}

/** Whether a refusal is the TOTP step-up (the person can fix it here) rather than the person rule. */
function needsStepUp(err: unknown): boolean {
  const e = err as { problem?: { code?: string; detail?: string } };
  return e?.problem?.code === 'maker_checker_violation' && /totp|two-factor|step-up/i.test(e.problem.detail ?? '');
}

/**
 * The proposal's status now, read from the fund's list of proposals (newest first, every status) down
 * to where it sits: null when it is not found there.
 */
async function statusNow(p: Proposal): Promise<string | null> {
  let cursor: string | null = null;
  for (let i = 0; i < 20; i++) {
    const page: Page<Proposal> = await consoleRequest<Page<Proposal>>(`${BASE}${query({ cursor, limit: 100 })}`);
    const found = page.items.find((x) => x.id === p.id);
    if (found) return found.status;
    const last = page.items[page.items.length - 1];
    if (!page.hasMore || !page.nextCursor || !last || newer(p, last)) return null;
    cursor = page.nextCursor;
  }
  return null;
}

function Decide({
  proposal,
  decision,
  onClose,
  onDone,
  onStale,
}: {
  proposal: Proposal;
  decision: Action;
  onClose(): void;
  onDone(p: Proposal): void;
  /** A 409: the lists may be out of date (the proposal decided elsewhere), they are reloaded. */
  onStale(): void;
}) {
  const [text, setText] = useState('');
  // after a 409, the proposal's status as re-read (a 409 is also "a NAV run, an import or an approval
  // of this fund is in progress": the proposal is then still pending); undefined while not known
  const [statusAfter409, setStatusAfter409] = useState<string | null | undefined>(undefined);
  const action = useAction();
  const id = useId();
  const a = ACTIONS[decision];
  const required = a.field === 'reason';
  const submit = async () => {
    const body = required || text.trim() ? { [a.field]: text.trim() } : {};
    setStatusAfter409(undefined);
    let conflict = false;
    const done = await action.run(async () => {
      try {
        return await consoleRequest<Proposal>(actionUrl(proposal.id, decision), { method: 'POST', body });
      } catch (err) {
        conflict = err instanceof ApiError && err.status === 409;
        throw err;
      }
    });
    if (done) onDone(done);
    else if (conflict) {
      setStatusAfter409(await statusNow(proposal).catch(() => null));
      onStale();
    }
  };
  const fieldErr = fieldError(action.error, a.field);
  const conflict = action.error instanceof ApiError && action.error.status === 409;
  const decidedElsewhere = conflict && typeof statusAfter409 === 'string' && statusAfter409 !== 'pending';
  return (
    <ConfirmDialog
      open
      title={`${a.verb} this ${KIND_TITLES[proposal.kind]?.toLowerCase() ?? 'proposal'}?`}
      confirmLabel={a.confirm}
      danger={a.danger}
      busy={action.busy || (required && !text.trim())}
      onConfirm={submit}
      onCancel={onClose}
    >
      <p>{a.explain}</p>
      <div className="field">
        <label htmlFor={id}>{a.label}</label>
        <textarea
          id={id}
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={2000}
          required={required}
          aria-invalid={fieldErr ? true : undefined}
          aria-describedby={fieldErr ? `${id}-error` : undefined}
        />
        {fieldErr && (
          <div className="field-error" id={`${id}-error`}>
            {fieldErr}
          </div>
        )}
      </div>
      <ErrorMessage error={action.error} title={a.failed} />
      {decidedElsewhere && (
        <p className="notice">It was decided elsewhere ({statusAfter409}): the pending list is reloaded.</p>
      )}
      {conflict && statusAfter409 === 'pending' && <p className="notice">It is still pending: nothing was decided.</p>}
      {needsStepUp(action.error) && <StepUp onVerified={() => action.setError(null)} />}
    </ConfirmDialog>
  );
}

function PendingRow({ p, onDecide }: { p: Proposal; onDecide(p: Proposal, d: Action): void }) {
  const { session } = useSession();
  const titleId = `proposal-${p.id}`;
  // the maker's own (staged with any of their keys): only they may withdraw it
  const mine = Boolean(p.proposedBy.userId) && p.proposedBy.userId === session?.user.id;
  return (
    <article className="proposal" data-testid="proposal-row" aria-labelledby={titleId}>
      <h3 id={titleId}>
        {KIND_TITLES[p.kind] ?? p.kind}{' '}
        <span className="muted small">
          staged {formatDateTime(p.createdAt)} by {actorName(p.proposedBy, session?.user.id)}
        </span>
      </h3>
      <ProposalPayloadView kind={p.kind} payload={p.payload} />
      <div className="actions">
        <button type="button" onClick={() => onDecide(p, 'approve')}>
          Approve
        </button>
        <button type="button" className="secondary" onClick={() => onDecide(p, 'reject')}>
          Reject
        </button>
        {mine && (
          <button type="button" className="secondary" onClick={() => onDecide(p, 'withdraw')}>
            Withdraw
          </button>
        )}
      </div>
    </article>
  );
}

const PAGE_SIZE = 50;
/** The statuses of the Decided list: a checker's decisions and the makers' withdrawals. */
const DECIDED = ['approved', 'rejected', 'withdrawn'] as const;

const BADGES: Record<string, string> = { approved: 'badge ok', rejected: 'badge bad' };

interface Stream {
  items: Proposal[];
  cursor: string | null;
  more: boolean;
}

function newer(a: Proposal, b: Proposal): boolean {
  return a.createdAt === b.createdAt ? a.id > b.id : a.createdAt > b.createdAt;
}

/**
 * The newest `count` decided proposals: the API filters by one status, so the approved, the
 * rejected and the withdrawn ones are read page by page (newest first, as the API orders them) and merged.
 */
async function loadDecided(count: number): Promise<{ items: Proposal[]; hasMore: boolean }> {
  const streams: Stream[] = DECIDED.map(() => ({ items: [], cursor: null, more: true }));
  const items: Proposal[] = [];
  while (items.length < count) {
    await Promise.all(
      streams.map(async (st, i) => {
        if (st.items.length > 0 || !st.more) return;
        const page = await consoleRequest<Page<Proposal>>(
          `${BASE}${query({ status: DECIDED[i], cursor: st.cursor, limit: PAGE_SIZE })}`,
        );
        streams[i] = { items: page.items, cursor: page.nextCursor, more: page.hasMore && page.nextCursor !== null };
      }),
    );
    const heads = streams.filter((st) => st.items.length > 0);
    if (heads.length === 0) break;
    const next = heads.reduce((a, b) => (newer(b.items[0], a.items[0]) ? b : a));
    items.push(next.items.shift()!);
  }
  return { items, hasMore: streams.some((st) => st.items.length > 0 || st.more) };
}

/** The first `pages` pages of the pending queue as one list (reloaded whole after a change). */
async function loadPending(pages: number): Promise<Page<Proposal>> {
  let page = await consoleRequest<Page<Proposal>>(`${BASE}${query({ status: 'pending', limit: PAGE_SIZE })}`);
  const items = [...page.items];
  for (let i = 1; i < pages && page.hasMore && page.nextCursor; i++) {
    page = await consoleRequest<Page<Proposal>>(
      `${BASE}${query({ status: 'pending', cursor: page.nextCursor, limit: PAGE_SIZE })}`,
    );
    items.push(...page.items);
  }
  return { ...page, items };
}

function History() {
  const { session } = useSession();
  const [pages, setPages] = useState(1);
  const list = useLoad(() => loadDecided(pages * PAGE_SIZE), [pages]);
  const decided = list.data?.items ?? [];
  return (
    <section className="panel" aria-labelledby="history">
      <h2 id="history">Decided</h2>
      <ErrorMessage error={list.error} title="The history could not be loaded." />
      {list.loading && <Loading what="decided proposals" />}
      {list.data && decided.length === 0 && <p className="muted">Nothing decided yet.</p>}
      {decided.length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Decided proposals">
          <table>
            <thead>
              <tr>
                <th scope="col">Decided</th>
                <th scope="col">Kind</th>
                <th scope="col">Outcome</th>
                <th scope="col">Staged by</th>
                <th scope="col">Decided by</th>
                <th scope="col">Note or reason</th>
                <th scope="col">In the books</th>
              </tr>
            </thead>
            <tbody>
              {decided.map((p) => (
                <tr key={p.id} data-testid="decided-row">
                  <td className="nowrap">{formatDateTime(p.decidedAt ?? p.withdrawnAt)}</td>
                  <td>{KIND_TITLES[p.kind] ?? p.kind}</td>
                  <td>
                    <span className={BADGES[p.status] ?? 'badge'}>{p.status}</span>
                  </td>
                  <td>{actorName(p.proposedBy, session?.user.id)}</td>
                  <td>
                    {p.status === 'withdrawn'
                      ? `Withdrawn by ${actorName(p.withdrawnBy, session?.user.id)}`
                      : actorName(p.decidedBy, session?.user.id)}
                  </td>
                  <td>{(p.status === 'withdrawn' ? p.withdrawalNote : p.decisionNote) ?? ''}</td>
                  <td className="mono small">{p.executionRef ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data?.hasMore && (
        <button type="button" className="secondary" disabled={list.loading} onClick={() => setPages((n) => n + 1)}>
          Show more decided
        </button>
      )}
    </section>
  );
}

const TEN_MINUTES = 10 * 60_000;

/** The clock, read when the component mounts and again every `everyMs` (render stays pure). */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

/** On a fund that requires it, the step-up state and the way to renew it, before a decision fails. */
function TotpRequirement() {
  const { membership, session } = useSession();
  const now = useNow(5_000);
  if (!membership?.approvalRequiresTotp) return null;
  const verifiedAt = session?.totpVerifiedAt ? new Date(session.totpVerifiedAt).getTime() : 0;
  const fresh = now - verifiedAt < TEN_MINUTES;
  return (
    <section className="panel" aria-labelledby="totp-req">
      <h2 id="totp-req">Two-factor check</h2>
      <p>
        {membership.fund.name} requires a two-factor check in the last 10 minutes to approve.{' '}
        {fresh ? `Verified at ${formatDateTime(session!.totpVerifiedAt)}.` : 'Verify a code before approving.'}
      </p>
      {!fresh && <StepUp />}
    </section>
  );
}

export function ProposalsPage() {
  const [pendingPages, setPendingPages] = useState(1);
  const pending = useLoad(() => loadPending(pendingPages), [pendingPages]);
  const [deciding, setDeciding] = useState<{ p: Proposal; d: Action } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [historyKey, setHistoryKey] = useState(0);
  const done = (p: Proposal) => {
    setDeciding(null);
    setMessage(`${KIND_TITLES[p.kind] ?? 'Proposal'} ${p.status}${p.executionRef ? ` (${p.executionRef})` : ''}.`);
    pending.reload();
    setHistoryKey((k) => k + 1);
  };
  return (
    <>
      <PageTitle title="Proposals">Proposals</PageTitle>
      <p className="muted">
        Agents and analysts stage changes with their keys; a different person with manager or admin approves them. You
        may withdraw a pending proposal you staged. Two-factor step-up, when the fund requires it, is on the{' '}
        <Link to="/account">account page</Link>.
      </p>
      {message && <Notice>{message}</Notice>}
      <TotpRequirement />
      <section className="panel" aria-labelledby="pending">
        <h2 id="pending">Pending</h2>
        <ErrorMessage error={pending.error} title="The queue could not be loaded." />
        {pending.loading && !pending.data && <Loading what="pending proposals" />}
        {pending.data?.items.length === 0 && <p className="muted">Nothing waits for review.</p>}
        {pending.data?.items.map((p) => (
          <PendingRow key={p.id} p={p} onDecide={(x, d) => setDeciding({ p: x, d })} />
        ))}
        {pending.data?.hasMore && (
          <button
            type="button"
            className="secondary"
            disabled={pending.loading}
            onClick={() => setPendingPages((n) => n + 1)}
          >
            Show more pending
          </button>
        )}
      </section>
      <History key={historyKey} />
      {deciding && (
        <Decide
          proposal={deciding.p}
          decision={deciding.d}
          onClose={() => setDeciding(null)}
          onDone={done}
          onStale={() => {
            pending.reload();
            setHistoryKey((k) => k + 1);
          }}
        />
      )}
    </>
  );
}
