import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { consoleRequest } from '../api';
import { ErrorMessage, formatDateTime, Loading, Notice, PageTitle, useAction, useLoad } from '../components';
import { useSession } from '../session';
import { NewPersonFields } from './SignUp';

interface InvitationInfo {
  fund: { slug: string; name: string };
  role: string;
  email: string;
  expiresAt: string;
}

/** /console/invite/:token — the invitation, then either a new account or acceptance as the signed-in person. */
export function InvitePage() {
  const { token = '' } = useParams();
  const { status, session, refresh, setFund, signOut } = useSession();
  const navigate = useNavigate();
  const invite = useLoad(
    () =>
      consoleRequest<InvitationInfo>(`/api/v1/console/invitations/${encodeURIComponent(token)}`, {
        noFund: true,
        expect401: true,
      }),
    [token],
  );
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const { error, busy, run } = useAction();
  const signedInAsInvitee =
    status === 'signed-in' && invite.data && session?.user.email.toLowerCase() === invite.data.email.toLowerCase();
  // The server accepts only as the invited person: someone else signed in must sign out first.
  const signedInAsSomeoneElse = status === 'signed-in' && invite.data && !signedInAsInvitee;
  const signOutAction = useAction();
  const [signedOutHere, setSignedOutHere] = useState(false);
  const signOutThenAccept = async () => {
    const done = await signOutAction.run(async () => {
      await signOut();
      return true;
    });
    if (done) setSignedOutHere(true);
  };

  const accept = async (e: FormEvent) => {
    e.preventDefault();
    const body = signedInAsInvitee ? {} : { displayName, password };
    const done = await run(() =>
      consoleRequest(`/api/v1/console/invitations/${encodeURIComponent(token)}/accept`, {
        method: 'POST',
        body,
        noFund: true,
        expect401: true,
      }),
    );
    if (done !== undefined) {
      await refresh();
      if (invite.data) setFund(invite.data.fund.slug);
      void navigate('/keys', { replace: true });
    }
  };

  return (
    <section className="panel narrow" aria-labelledby="invite-title">
      <PageTitle title="Invitation">
        <span id="invite-title">Accept an invitation</span>
      </PageTitle>
      {invite.loading && <Loading what="the invitation" />}
      <ErrorMessage error={invite.error} title="This invitation cannot be used." />
      {invite.data && signedInAsSomeoneElse && (
        <>
          <p>
            You are invited to <strong>{invite.data.fund.name}</strong> as <strong>{invite.data.role}</strong>. The
            invitation is valid until {formatDateTime(invite.data.expiresAt)}.
          </p>
          <p className="notice" data-testid="invite-other-person">
            This invitation is for <strong>{invite.data.email}</strong>, and you are signed in as{' '}
            <strong>{session?.user.email}</strong>. Only {invite.data.email} can accept it: sign out, then accept it as
            that person (sign in as them, or create their account).
          </p>
          <ErrorMessage error={signOutAction.error} title="Could not sign out." />
          <div className="actions">
            <button type="button" onClick={signOutThenAccept} disabled={signOutAction.busy}>
              Sign out, then accept
            </button>
          </div>
        </>
      )}
      {invite.data && !signedInAsSomeoneElse && (
        <form onSubmit={accept} noValidate>
          <p>
            You are invited to <strong>{invite.data.fund.name}</strong> as <strong>{invite.data.role}</strong>, with the
            email <strong>{invite.data.email}</strong>. The invitation is valid until{' '}
            {formatDateTime(invite.data.expiresAt)}.
          </p>
          {signedOutHere && status === 'signed-out' && (
            <Notice>You are signed out. Accept the invitation as {invite.data.email} below.</Notice>
          )}
          <ErrorMessage error={error} title="Could not accept the invitation." />
          {signedInAsInvitee ? (
            <p>You are signed in as {session?.user.email}: accepting adds this fund to your account.</p>
          ) : (
            <>
              <NewPersonFields
                displayName={displayName}
                setDisplayName={setDisplayName}
                password={password}
                setPassword={setPassword}
                error={error}
              />
              <p className="muted">
                Already have an account with this email?{' '}
                <Link to={`/sign-in?next=${encodeURIComponent(`/invite/${token}`)}`}>Sign in first</Link>.
              </p>
            </>
          )}
          <div className="actions">
            <button type="submit" disabled={busy}>
              Accept invitation
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
