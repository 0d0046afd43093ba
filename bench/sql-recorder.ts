import { AsyncLocalStorage } from 'node:async_hooks';
import { Client } from 'pg';

/** One statement a route sent, with its parameters and the transaction settings it ran under. */
export interface RecordedStatement {
  route: string;
  text: string;
  values: unknown[];
  /** The transaction's opening (`BEGIN …`) when the statement ran inside one, else null. */
  begin: string | null;
  /** Settings in force on that connection when it ran: its startup options, then its `SET`s (replayed as SET LOCAL). */
  settings: string[];
}

interface ClientState {
  begin: string | null;
  session: string[];
  local: string[];
}

const CONTROL = /^\s*(BEGIN|START TRANSACTION|COMMIT|ROLLBACK|END|SET|RESET|SAVEPOINT|RELEASE)\b/i;

/**
 * Records every statement node-postgres sends while a route's request is in flight: the route is
 * carried by AsyncLocalStorage from the request into the driver call, so statements of other
 * requests or of background timers (activity-log flushes, pollers) are never attributed to it.
 * Transaction control and SET statements are not recorded as statements; they are tracked per
 * connection so a recorded statement can be explained under the same settings.
 */
export class SqlRecorder {
  readonly statements: RecordedStatement[] = [];
  private readonly route = new AsyncLocalStorage<string>();
  private readonly states = new WeakMap<object, ClientState>();
  private original: typeof Client.prototype.query | null = null;

  install(): void {
    if (this.original) return;
    const original = Client.prototype.query;
    this.original = original;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the patched method needs both `this`es
    const recorder = this;
    Client.prototype.query = function patched(this: Client, ...args: unknown[]) {
      recorder.observe(this, args[0], args[1]);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof Client.prototype.query;
  }

  uninstall(): void {
    if (this.original) Client.prototype.query = this.original;
    this.original = null;
  }

  /** Runs `fn` (one request) with its statements recorded under `route`. */
  during<T>(route: string, fn: () => Promise<T>): Promise<T> {
    return this.route.run(route, fn);
  }

  private observe(client: object, config: unknown, maybeValues: unknown): void {
    const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
    if (typeof text !== 'string') return; // cursors and streams: none of the read routes uses them
    const values = Array.isArray(maybeValues) ? maybeValues : ((config as { values?: unknown[] } | null)?.values ?? []);
    const state = this.states.get(client) ?? { begin: null, session: startupSettings(client), local: [] };
    this.states.set(client, state);
    const parts = splitSimple(text);
    if (parts.every((p) => CONTROL.test(p))) {
      for (const part of parts) track(state, part);
      return;
    }
    const route = this.route.getStore();
    if (route === undefined) return;
    this.statements.push({
      route,
      text,
      values,
      begin: state.begin,
      settings: [...state.session, ...state.local],
    });
  }
}

/** The pool's connection-time settings (`options: '-c name=value …'`), replayed like session SETs. */
function startupSettings(client: object): string[] {
  const options = (client as { connectionParameters?: { options?: string } }).connectionParameters?.options ?? '';
  return [...options.matchAll(/-c\s*([a-z_.]+)=(\S+)/g)].map((m) => `SET LOCAL ${m[1]} = '${m[2]}'`);
}

function track(state: ClientState, part: string): void {
  const word = part.trim().split(/\s+/)[0].toUpperCase();
  if (word === 'BEGIN' || word === 'START') {
    state.begin = part.trim();
    state.local = [];
  } else if (word === 'COMMIT' || word === 'ROLLBACK' || word === 'END') {
    state.begin = null;
    state.local = [];
  } else if (word === 'SET') {
    const local = /^\s*SET\s+LOCAL\s/i.test(part);
    const asLocal = part.trim().replace(/^SET\s+(LOCAL\s+|SESSION\s+)?/i, 'SET LOCAL ');
    if (local) state.local.push(asLocal);
    else if (state.begin === null) state.session.push(asLocal);
    else state.local.push(asLocal); // a plain SET inside a transaction outlives it, but only this statement matters here
  }
}

/** A simple-protocol string split at its top-level semicolons (control strings carry no literals with ';'). */
function splitSimple(text: string): string[] {
  return text
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}
