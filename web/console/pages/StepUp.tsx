import { useState, type FormEvent } from 'react';
import { consoleRequest } from '../api';
import { ErrorMessage, fieldError, Notice, TextField, useAction } from '../components';
import { useSession } from '../session';

/** TOTP step-up: a fresh code marks this session verified for 10 minutes (needed to approve on some funds). */
export function StepUp({ onVerified }: { onVerified?: () => void }) {
  const { session, refresh } = useSession();
  const [code, setCode] = useState('');
  const [done, setDone] = useState(false);
  const { error, busy, run } = useAction();
  if (!session?.user.totpEnabled) {
    return (
      <p className="notice">
        This needs two-factor authentication: enrol an authenticator app on the account page first.
      </p>
    );
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (
      (await run(() =>
        consoleRequest('/api/v1/console/account/totp/verify', {
          method: 'POST',
          body: { code: code.trim() },
          noFund: true,
        }),
      )) !== undefined
    ) {
      setDone(true);
      setCode('');
      await refresh();
      onVerified?.();
    }
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Verify a two-factor code">
      {done && <Notice>Verified: for the next 10 minutes this session counts as two-factor checked.</Notice>}
      <ErrorMessage error={error} title="The code was not accepted." />
      <TextField
        label="Two-factor code"
        value={code}
        onChange={setCode}
        inputMode="numeric"
        autoComplete="one-time-code"
        help="6 digits from your authenticator app, or a recovery code."
        error={fieldError(error, 'code')}
      />
      <button type="submit" disabled={busy}>
        Verify code
      </button>
    </form>
  );
}
