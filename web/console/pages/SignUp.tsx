import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { consoleRequest, type SessionInfo } from '../api';
import { ErrorMessage, fieldError, PageTitle, TextField, useAction } from '../components';
import { useSession } from '../session';

/** The server's rule for a new password (sign-up, invitation, account, reset), and a hint. */
export const PASSWORD_HELP =
  '12 to 1024 characters, not only spaces. A passphrase of several words is easiest to remember.';

/** A person's email address, as they type it to be found (sign-up, a password reset link). */
export function EmailField(props: { id?: string; value: string; onChange: (v: string) => void; error?: string }) {
  return <TextField label="Email" {...props} type="email" autoComplete="email" required />;
}

/** A new password with the server's rule as its help (sign-up, invitation, reset by email). */
export function NewPasswordField(props: {
  label?: string;
  id?: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
}) {
  return (
    <TextField
      label="Password"
      {...props}
      type="password"
      autoComplete="new-password"
      required
      minLength={12}
      help={PASSWORD_HELP}
    />
  );
}

interface NewPersonFieldsProps {
  displayName: string;
  setDisplayName: (v: string) => void;
  password: string;
  setPassword: (v: string) => void;
  error: unknown;
}

/** Display name and a new password: the fields a new person fills in (sign-up, invitation acceptance). */
export function NewPersonFields({ displayName, setDisplayName, password, setPassword, error }: NewPersonFieldsProps) {
  return (
    <>
      <TextField
        label="Display name"
        value={displayName}
        onChange={setDisplayName}
        autoComplete="name"
        required
        error={fieldError(error, 'displayName')}
      />
      <NewPasswordField value={password} onChange={setPassword} error={fieldError(error, 'password')} />
    </>
  );
}

export function SignUpPage() {
  const { signedIn } = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const { error, busy, run } = useAction();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const session = await run(() =>
      consoleRequest<SessionInfo>('/api/v1/console/sign-up', {
        method: 'POST',
        body: { email, displayName, password },
        expect401: true,
        noFund: true,
      }),
    );
    if (session) {
      signedIn(session);
      void navigate('/keys', { replace: true });
    }
  };

  return (
    <section className="panel narrow" aria-labelledby="sign-up-title">
      <PageTitle title="Sign up">
        <span id="sign-up-title">Create an account</span>
      </PageTitle>
      <p className="muted">
        An account without a fund mints calculator-only keys on the free plan. To work on a fund’s data, ask one of its
        admins for an invitation.
      </p>
      <form onSubmit={submit} noValidate>
        <ErrorMessage error={error} title="Could not create the account." />
        <EmailField value={email} onChange={setEmail} error={fieldError(error, 'email')} />
        <NewPersonFields
          displayName={displayName}
          setDisplayName={setDisplayName}
          password={password}
          setPassword={setPassword}
          error={error}
        />
        <div className="actions">
          <button type="submit" disabled={busy}>
            Create account
          </button>
        </div>
      </form>
      <p>
        Already have an account? <Link to="/sign-in">Sign in</Link>.
      </p>
    </section>
  );
}
