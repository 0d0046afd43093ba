import { useId, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ApiError, formatDuration } from '../../shared/api';
import { consoleRequest } from '../api';
import {
  ErrorMessage,
  fieldError,
  formatDateTime,
  formProblem,
  Loading,
  Notice,
  PageTitle,
  problemCode,
  SubmitButton,
  TextField,
  useAction,
  useLoad,
  type FieldTargets,
} from '../components';
import { EmailField, NewPasswordField } from './SignUp';

const RESETS = '/api/v1/console/password-reset';

/** What the sign-in page is told after a reset (router state: nothing of it in the address). */
export interface PasswordChangedState {
  passwordChanged: true;
}

/** Why a request for a link was refused, in the words of someone who forgot their password. */
function requestRefusal(err: unknown): string | undefined {
  if (problemCode(err) === 'forbidden')
    return 'Password reset by email is not available on this service: its operator has not set up mail. Ask the fund’s operator (or your fund’s admin) to set a new password for you.';
  if (err instanceof ApiError && err.status === 429) {
    const wait = err.retryAfter === null ? 'later' : `in ${formatDuration(err.retryAfter)}`;
    return `Too many links were asked for: try again ${wait}. Links are limited to 3 per email and 10 per address in 15 minutes, so nobody can flood a mailbox; a link sent earlier still works until it expires.`;
  }
  return undefined;
}

/** /console/forgot-password — an email; the same answer whether or not an account uses it. */
export function ForgotPasswordPage() {
  const location = useLocation();
  const given = (location.state as { email?: string } | null)?.email ?? '';
  const [email, setEmail] = useState(given);
  const [sent, setSent] = useState<{ expiresInMinutes: number } | null>(null);
  const { error, busy, run } = useAction();
  const emailId = useId();
  const fields: FieldTargets = { email: { label: 'Email', id: emailId } };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const answer = await run(() =>
      consoleRequest<{ message: string; expiresInMinutes: number }>(RESETS, {
        method: 'POST',
        body: { email },
        expect401: true,
        noFund: true,
      }),
    );
    if (answer) setSent(answer);
  };

  return (
    <section className="panel narrow" aria-labelledby="forgot-title">
      <PageTitle title="Forgot your password">
        <span id="forgot-title">Forgot your password?</span>
      </PageTitle>
      {sent ? (
        <Notice focus>
          If an account exists for that address, we sent a link valid {sent.expiresInMinutes} minutes — check your
          inbox. The link works once; asking again replaces it.
        </Notice>
      ) : (
        <form onSubmit={submit} noValidate>
          <p className="muted">Enter the email of your console account: we send it a link to choose a new password.</p>
          <ErrorMessage error={error} title="No link was sent." fields={fields} focus detail={requestRefusal(error)} />
          <EmailField id={emailId} value={email} onChange={setEmail} error={fieldError(error, 'email')} />
          <div className="actions">
            <SubmitButton busy={busy}>Send me a link</SubmitButton>
          </div>
        </form>
      )}
      <p>
        Remembered it? <Link to="/sign-in">Sign in</Link>.
      </p>
    </section>
  );
}

/** The preview's refusal: a used or expired link (410) or one that never was (404), and what to do. */
function LinkProblem({ error }: { error: unknown }) {
  const gone = error instanceof ApiError && error.status === 410;
  const unknown = error instanceof ApiError && error.status === 404;
  if (!gone && !unknown) return <ErrorMessage error={error} title="The link could not be checked." />;
  return (
    <div className="error" role="alert">
      <strong>
        {gone ? 'This link has expired or was already used — ask for a new one.' : 'This link is not valid.'}
      </strong>
      <p className="explain">
        {gone
          ? 'A link works once, for 30 minutes, and a newer one replaces it.'
          : 'Check that you opened the whole link from the mail, or ask for a new one.'}{' '}
        <Link to="/forgot-password">Ask for a new link</Link>.
      </p>
    </div>
  );
}

/** /console/reset-password/:token — the link from the mail: whom it is for, then the new password. */
export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const path = `${RESETS}/${encodeURIComponent(token)}`;
  const preview = useLoad(
    () => consoleRequest<{ email: string; expiresAt: string }>(path, { noFund: true, expect401: true }),
    [path],
  );
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { error, busy, run, setError } = useAction();
  const ids = useId();
  const fields: FieldTargets = {
    password: { label: 'New password', id: `${ids}-password` },
    confirm: { label: 'Confirm the new password', id: `${ids}-confirm` },
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (password !== confirm) {
      setError(formProblem('confirm', 'does not match the new password: type the same password twice'));
      return;
    }
    const done = await run(() =>
      consoleRequest(path, { method: 'POST', body: { password }, noFund: true, expect401: true }),
    );
    if (done !== undefined) {
      const state: PasswordChangedState = { passwordChanged: true };
      void navigate('/sign-in', { replace: true, state });
    }
  };

  return (
    <section className="panel narrow" aria-labelledby="reset-title">
      <PageTitle title="Choose a new password">
        <span id="reset-title">Choose a new password</span>
      </PageTitle>
      {preview.loading && !preview.data && !preview.error && <Loading what="the link" />}
      {preview.error !== null && <LinkProblem error={preview.error} />}
      {preview.data && (
        <form onSubmit={submit} noValidate>
          <p>
            Choose a new password for <strong>{preview.data.email}</strong>; this link expires at{' '}
            {formatDateTime(preview.data.expiresAt)}. Every session of the account is signed out when it changes.
          </p>
          <ErrorMessage error={error} title="The password was not changed." fields={fields} focus />
          <NewPasswordField
            id={fields.password.id}
            label="New password"
            value={password}
            onChange={setPassword}
            error={fieldError(error, 'password')}
          />
          <TextField
            id={fields.confirm.id}
            label="Confirm the new password"
            type="password"
            value={confirm}
            onChange={setConfirm}
            autoComplete="new-password"
            required
            error={fieldError(error, 'confirm')}
          />
          <div className="actions">
            <SubmitButton busy={busy}>Change password</SubmitButton>
          </div>
        </form>
      )}
    </section>
  );
}
