import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { consoleRequest, type SessionInfo } from '../api';
import { ErrorMessage, fieldError, Notice, PageTitle, problemCode, TextField, useAction, useLoad } from '../components';
import { useSession } from '../session';
import type { PasswordChangedState } from './PasswordReset';

/** Where to go after signing in: a console path from ?next=, never another site. */
export function nextPath(params: URLSearchParams): string {
  const next = params.get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/keys';
}

export function SignInPage() {
  const { signedIn, endedMessage } = useSession();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totpCode, setTotpCode] = useState('');
  const [needsTotp, setNeedsTotp] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  // the code field appears after the first answer (totp_required): the person types there next
  useEffect(() => {
    if (needsTotp) codeRef.current?.focus();
  }, [needsTotp]);
  const { error, busy, run } = useAction();
  const passwordChanged = (useLocation().state as PasswordChangedState | null)?.passwordChanged === true;
  // reset by email is offered only when the operator configured mail (SMTP_URL)
  const reset = useLoad(
    () => consoleRequest<{ enabled: boolean }>('/api/v1/console/password-reset', { noFund: true, expect401: true }),
    [],
  );
  // sign-up may be off (CONSOLE_SIGNUP=false): the link is offered only when the server takes new people
  const signUp = useLoad(
    () => consoleRequest<{ enabled: boolean }>('/api/v1/console/sign-up', { noFund: true, expect401: true }),
    [],
  );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const session = await run(async () => {
      try {
        return await consoleRequest<SessionInfo>('/api/v1/console/sign-in', {
          method: 'POST',
          body: { email, password, ...(needsTotp && totpCode ? { totpCode } : {}) },
          expect401: true,
          noFund: true,
        });
      } catch (err) {
        if (problemCode(err) === 'totp_required') setNeedsTotp(true);
        throw err;
      }
    });
    if (session) {
      signedIn(session);
      void navigate(nextPath(params), { replace: true });
    }
  };

  return (
    <section className="panel narrow" aria-labelledby="sign-in-title">
      <PageTitle title="Sign in">
        <span id="sign-in-title">Sign in to the console</span>
      </PageTitle>
      {passwordChanged && (
        <Notice focus>
          Password changed. Every session was signed out; sign in with your new password (your authenticator code is
          still asked for if you use one).
        </Notice>
      )}
      {endedMessage && <Notice kind="notice">{endedMessage}</Notice>}
      <form onSubmit={submit} noValidate>
        <ErrorMessage error={error} title="Could not sign in." />
        <TextField
          label="Email"
          type="email"
          value={email}
          onChange={setEmail}
          autoComplete="username"
          required
          error={fieldError(error, 'email')}
        />
        <TextField
          label="Password"
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          required
          error={fieldError(error, 'password')}
        />
        {needsTotp && (
          <TextField
            label="Authentication code"
            ref={codeRef}
            value={totpCode}
            onChange={setTotpCode}
            inputMode="numeric"
            autoComplete="one-time-code"
            help="The 6-digit code from your authenticator app, or one of your recovery codes."
            error={fieldError(error, 'totpCode')}
          />
        )}
        <div className="actions">
          <button type="submit" disabled={busy}>
            Sign in
          </button>
        </div>
      </form>
      {reset.data?.enabled && (
        <p>
          <Link to="/forgot-password" state={{ email }}>
            Forgot your password?
          </Link>
        </p>
      )}
      {signUp.data?.enabled ? (
        <p>
          New here? <Link to="/sign-up">Create an account</Link> for calculator keys; an admin of a fund can invite you
          to it.
        </p>
      ) : (
        signUp.data && <p>New here? An admin of a fund can invite you to it.</p>
      )}
    </section>
  );
}
