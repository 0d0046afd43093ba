import { randomBytes } from 'node:crypto';
import { type DataSource } from 'typeorm';
import { ROLES, type Role } from '../common/auth/scopes';
import type { Plan } from '../config/config';
import { ConnectedApps } from '../oauth/connected-apps';
import { hashPassword, verifyPassword } from './password';
import { PasswordResetsRepository } from './password-resets.repository';
import { SessionsRepository } from './sessions.repository';
import { UsersRepository } from './users.repository';

export interface PersonSpec {
  email: string;
  displayName: string;
  plan?: Plan;
  /** Sets (or replaces) the password when given. */
  password?: string | null;
  /**
   * Adds a membership, or raises an existing one to this role (never lowers it). `refuseLower`: a
   * role lower than the current one is refused (RoleNotLoweredError) and nothing is changed.
   */
  fund?: { slug: string; role: Role; refuseLower?: boolean };
}

/** A role asked for that is lower than the person's current one on the fund (upsertPerson never lowers). */
export class RoleNotLoweredError extends Error {
  constructor(
    readonly email: string,
    readonly slug: string,
    readonly current: Role,
    readonly asked: Role,
  ) {
    super(
      `${email} is ${current} on ${slug}, higher than ${asked}: a role is never lowered here; ` +
        "lower it on the console's Members page (a fund admin). Nothing was changed",
    );
  }
}

/**
 * Operator-side bootstrap without a Nest container (users CLI, seed:demo, bench): creates the person
 * (and their account) when the email is new, then applies password, plan and membership. One transaction.
 * A password that differs from the stored one ends the person's console sessions, disconnects their
 * OAuth apps and closes their open reset links (an operator reset); their API keys are kept.
 */
export async function upsertPerson(
  db: DataSource,
  spec: PersonSpec,
): Promise<{
  userId: string;
  accountId: string;
  created: boolean;
  role: Role | null;
  renamed: boolean;
  passwordChanged: boolean;
}> {
  const users = new UsersRepository(db);
  const passwordHash = spec.password ? await hashPassword(spec.password) : null;
  return users.transaction(async (m) => {
    const existing = await users.with(m).byEmail(spec.email);
    let ids: { userId: string; accountId: string };
    let passwordChanged = false;
    if (existing) {
      ids = { userId: existing.id, accountId: existing.account_id };
      if (passwordHash && !(await verifyPassword(spec.password!, existing.password_hash))) {
        passwordChanged = true;
        // a new password from the operator (a reset): the person's sessions end, as a change in the console ends the others
        await users.with(m).setPassword(existing.id, passwordHash);
        await new SessionsRepository(db).with(m).revokeAllOf(existing.id);
        await ConnectedApps.over(db).endAllOf(m, existing.id); // and the apps connected from them
        await new PasswordResetsRepository(db).with(m).closeOpenOf(existing.id); // and links mailed before
      }
      if (spec.plan) await users.with(m).setPlan(existing.id, spec.plan);
      if (spec.displayName !== existing.display_name) await users.with(m).setDisplayName(existing.id, spec.displayName);
    } else {
      ids = await users
        .with(m)
        .createPerson({ email: spec.email, displayName: spec.displayName, passwordHash, plan: spec.plan ?? 'free' });
    }
    let role: Role | null = null;
    if (spec.fund) {
      const fundId = await users.with(m).fundIdBySlug(spec.fund.slug);
      if (!fundId) throw new Error(`fund "${spec.fund.slug}" does not exist`);
      role = await users.with(m).grantAtLeast(fundId, ids.userId, spec.fund.role);
      if (spec.fund.refuseLower && ROLES.indexOf(role) > ROLES.indexOf(spec.fund.role))
        throw new RoleNotLoweredError(spec.email.toLowerCase(), spec.fund.slug, role, spec.fund.role); // rolls it all back
    }
    const renamed = !!existing && spec.displayName !== existing.display_name;
    return { ...ids, created: !existing, role, renamed, passwordChanged };
  });
}

export const DEMO_PEOPLE = [
  { email: 'demo-admin@fundgate.dev', displayName: 'Demo Admin', role: 'admin' },
  { email: 'demo-analyst@fundgate.dev', displayName: 'Demo Analyst', role: 'analyst' },
] as const;

/**
 * seed:demo's console people on the demo fund: an admin (approves) and an analyst (stages proposals).
 * Both get `password` (DEMO_ADMIN_PASSWORD), or one generated now and returned so it can be printed.
 */
export async function ensureDemoPeople(
  db: DataSource,
  fundSlug: string,
  password: string | null,
): Promise<{ emails: string[]; password: string; generated: boolean }> {
  const chosen = password ?? randomBytes(12).toString('base64url');
  for (const p of DEMO_PEOPLE) {
    await upsertPerson(db, {
      email: p.email,
      displayName: p.displayName,
      password: chosen,
      plan: 'developer',
      fund: { slug: fundSlug, role: p.role },
    });
  }
  return { emails: DEMO_PEOPLE.map((p) => p.email), password: chosen, generated: password === null };
}
