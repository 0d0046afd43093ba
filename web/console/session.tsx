import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ApiError, describeError } from '../shared/api';
import { configureConsoleApi, consoleRequest, type Membership, type SessionInfo } from './api';

/**
 * The signed-in person, their memberships, the fund they are working on (null: their own
 * calculator-only keys) and the ways to change those. The fund choice is remembered per browser.
 */
const FUND_STORAGE = 'fundgate.console.fund';
export const NO_FUND = '';

type Status = 'loading' | 'signed-out' | 'signed-in';

export interface SessionContextValue {
  status: Status;
  session: SessionInfo | null;
  /** Slug of the fund chosen, or null. */
  fund: string | null;
  membership: Membership | null;
  /** Why the person was sent back to sign-in (expired session), shown there once. */
  endedMessage: string | null;
  /**
   * A message about a change to the person's own access (their role changed, they left a fund), kept
   * here because the page that made the change is replaced when the session is re-read. Shown by the
   * layout while the browser stays at the location it was set at (`locationKey`).
   */
  notice: { text: string; locationKey: string } | null;
  setNotice(text: string | null, locationKey?: string): void;
  setFund(slug: string | null): void;
  signedIn(session: SessionInfo): void;
  refresh(): Promise<void>;
  signOut(everywhere?: boolean): Promise<void>;
  /** Whether the chosen fund's role grants a scope. */
  can(scope: string): boolean;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function useSession(): SessionContextValue {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession outside SessionProvider');
  return ctx;
}

function pickFund(session: SessionInfo, wanted: string | null): string | null {
  const slugs = session.memberships.map((m) => m.fund.slug);
  if (wanted !== null && slugs.includes(wanted)) return wanted;
  if (wanted === NO_FUND) return null;
  return slugs[0] ?? null;
}

function storedFund(): string | null {
  try {
    return localStorage.getItem(FUND_STORAGE);
  } catch {
    return null;
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<Status>('loading');
  const [session, setSession] = useState<SessionInfo | null>(null);
  const [fund, setFundState] = useState<string | null>(null);
  const [endedMessage, setEndedMessage] = useState<string | null>(null);
  const [notice, setNoticeState] = useState<{ text: string; locationKey: string } | null>(null);

  // The fund this tab works on, as wanted: undefined until a session is adopted (then the browser's
  // remembered choice is read), NO_FUND for "no fund" chosen. A refresh (step-up, role change) keeps
  // it: localStorage is shared by every tab, and another tab may have chosen another fund since.
  const wantedFund = useRef<string | null | undefined>(undefined);

  const adopt = useCallback((s: SessionInfo) => {
    const wanted = wantedFund.current === undefined ? storedFund() : wantedFund.current;
    const chosen = pickFund(s, wanted);
    wantedFund.current = chosen ?? (wanted === NO_FUND ? NO_FUND : null);
    configureConsoleApi({ csrfToken: s.csrfToken, fund: chosen });
    setSession(s);
    setFundState(chosen);
    setStatus('signed-in');
    setEndedMessage(null);
  }, []);

  const dropSession = useCallback((message: string | null) => {
    wantedFund.current = undefined; // the next person to sign in here starts from the remembered choice
    configureConsoleApi({ csrfToken: null, fund: null });
    setSession(null);
    setStatus('signed-out');
    setEndedMessage(message);
    setNoticeState(null);
  }, []);

  const refresh = useCallback(async () => {
    try {
      adopt(await consoleRequest<SessionInfo>('/api/v1/console/session', { expect401: true, noFund: true }));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) dropSession(null);
      else throw err;
    }
  }, [adopt, dropSession]);

  useEffect(() => {
    configureConsoleApi({
      onSessionEnded: () =>
        dropSession('Your session has ended (it expired or you signed out elsewhere). Sign in again to continue.'),
    });
    // eslint-disable-next-line react-hooks/set-state-in-effect -- refresh() sets state only once its request has answered (after an await), never synchronously
    refresh().catch((err) => dropSession(`Your session could not be loaded: ${describeError(err)}`));
  }, [refresh, dropSession]);

  const value = useMemo<SessionContextValue>(() => {
    const membership = session?.memberships.find((m) => m.fund.slug === fund) ?? null;
    return {
      status,
      session,
      fund,
      membership,
      endedMessage,
      notice,
      setNotice(text, locationKey = '') {
        setNoticeState(text === null ? null : { text, locationKey });
      },
      setFund(slug) {
        try {
          localStorage.setItem(FUND_STORAGE, slug ?? NO_FUND);
        } catch {
          /* private mode: the choice lasts this page only */
        }
        wantedFund.current = slug ?? NO_FUND;
        configureConsoleApi({ fund: slug });
        setFundState(slug);
        setNoticeState(null); // it spoke of the fund chosen before
      },
      signedIn(s) {
        if (s && s.csrfToken) adopt(s);
        else refresh().catch((err) => dropSession(`Your session could not be loaded: ${describeError(err)}`));
      },
      refresh,
      async signOut(everywhere = false) {
        await consoleRequest(everywhere ? '/api/v1/console/sign-out-everywhere' : '/api/v1/console/sign-out', {
          method: 'POST',
          noFund: true,
          expect401: true,
        });
        dropSession(everywhere ? 'You are signed out on every device.' : 'You are signed out.');
      },
      can: (scope) => membership?.scopes.includes(scope) ?? false,
    };
  }, [status, session, fund, endedMessage, notice, adopt, refresh, dropSession]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
