import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EntityManager } from 'typeorm';
import { hashSecret, newSecret } from '../common/crypto/secrets';
import { fundIdOf, type Principal } from '../common/auth/principal';
import { ROLE_SCOPES, type Role } from '../common/auth/scopes';
import { notFound, ProblemError } from '../common/errors/problem';
import { APP_CONFIG, AppConfig } from '../config/config';
import { KeysRepository } from '../keys/keys.repository';
import { KeysService } from '../keys/keys.service';
import type {
  CreatedInvitationDto,
  InvitationDto,
  InvitationPreviewDto,
  MemberListDto,
  RemovedMemberDto,
  ServiceAccountDto,
  SessionDto,
} from './dto/console.dto';
import { InvitationRow, InvitationsRepository } from './invitations.repository';
import { hashPassword } from './password';
import { SessionAuth } from './session-auth';
import { SignInService } from './sign-in.service';
import { UsersRepository } from './users.repository';
import { WebhooksRepository } from '../webhooks/webhooks.repository';
import { ConnectedApps } from '../oauth/connected-apps';

export const INVITATION_DAYS = 7;
const HOLDER_REMOVED =
  'a person who created it, changed its URL, re-enabled it or rotated its secret was removed from the fund: check the URL, rotate the secret, then re-enable it';
const HOLDER_DEMOTED =
  'a person who created it, changed its URL, re-enabled it or rotated its secret no longer manages webhooks: check the URL, rotate the secret, then re-enable it';
const invitationView = (i: InvitationRow): InvitationDto => ({
  id: i.id,
  email: i.email,
  role: i.role,
  createdAt: i.created_at.toISOString(),
  expiresAt: i.expires_at.toISOString(),
});

/** A fund admin's view of the fund's people: members, invitations, service identities. */
@Injectable()
export class MembersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly invitations: InvitationsRepository,
    private readonly keyRepo: KeysRepository,
    private readonly keys: KeysService,
    private readonly webhooks: WebhooksRepository,
    private readonly apps: ConnectedApps,
    private readonly auth: SessionAuth,
    private readonly signIn: SignInService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(p: Principal): Promise<MemberListDto> {
    const fundId = fundIdOf(p);
    const [members, pending] = await Promise.all([this.users.membersOf(fundId), this.invitations.pendingOf(fundId)]);
    return {
      items: members.map((m) => ({
        userId: m.user_id,
        email: m.email,
        displayName: m.display_name,
        role: m.role,
        joinedAt: m.created_at.toISOString(),
      })),
      invitations: pending.map(invitationView),
    };
  }

  async invite(p: Principal, email: string, role: Role): Promise<CreatedInvitationDto> {
    const token = newSecret();
    const row = await this.invitations.create({
      fundId: fundIdOf(p),
      email,
      role,
      tokenHash: hashSecret(token),
      invitedBy: p.userId!,
      days: INVITATION_DAYS,
    });
    return { ...invitationView(row), token, inviteUrl: `${this.config.publicBaseUrl}/console/invitations/${token}` };
  }

  /**
   * Changes a role; the fund's last admin cannot be demoted (409). A demoted admin's pending
   * invitations are cancelled with it (one of them could otherwise make them admin again), and a
   * person who no longer manages webhooks has the subscriptions they hold disabled.
   */
  async setRole(p: Principal, userId: string, role: Role): Promise<void> {
    const fundId = fundIdOf(p);
    await this.users.transaction(async (m) => {
      const members = await this.users.with(m).lockMembers(fundId);
      const target = members.find((x) => x.user_id === userId);
      if (!target) throw notFound(`member ${userId}`);
      if (target.role === 'admin' && role !== 'admin' && members.filter((x) => x.role === 'admin').length === 1) {
        throw new ProblemError(
          'invalid_state',
          "the fund's last admin cannot be demoted; make someone else admin first",
        );
      }
      await this.users.with(m).setRole(fundId, userId, role);
      if (target.role === 'admin' && role !== 'admin') await this.invitations.with(m).cancelSentBy(fundId, userId);
      if (ROLE_SCOPES[target.role].includes('webhooks:manage') && !ROLE_SCOPES[role].includes('webhooks:manage'))
        await this.webhooks.with(m).disableHeldBy(fundId, userId, HOLDER_DEMOTED);
    });
    this.keys.forget();
  }

  /**
   * Removes a member, revokes every key they hold on the fund and every key they minted there (service
   * keys included: they saw each secret once), with the keys minted from those, cancels the
   * invitations they sent that are still open (one could make them a member again) and disables the
   * webhook subscriptions they hold (their URLs may be theirs; they knew the secrets) and ends the
   * OAuth apps they connected to the fund (grants and tokens; the keys went with theirs), in one
   * transaction.
   */
  async remove(p: Principal, userId: string): Promise<RemovedMemberDto> {
    const fundId = fundIdOf(p);
    const removed = await this.users.transaction(async (m) => {
      const members = await this.users.with(m).lockMembers(fundId);
      const target = members.find((x) => x.user_id === userId);
      if (!target) throw notFound(`member ${userId}`);
      if (target.role === 'admin' && members.filter((x) => x.role === 'admin').length === 1) {
        throw new ProblemError(
          'invalid_state',
          "the fund's last admin cannot be removed; make someone else admin first",
        );
      }
      await this.users.with(m).removeMember(fundId, userId);
      const revoked = await this.keyRepo.with(m).revokeKeysOfPersonOnFund(target.account_id, userId, fundId);
      // the subscriptions their keys hold went with the keys; these are the ones held in a session
      const inSession = await this.webhooks.with(m).disableHeldBy(fundId, userId, HOLDER_REMOVED);
      return {
        revokedKeys: revoked.keys,
        cancelledInvitations: await this.invitations.with(m).cancelSentBy(fundId, userId),
        disabledWebhooks: revoked.webhooks + inSession,
        disconnectedApps: await this.apps.endOnFund(m, userId, fundId),
      };
    });
    this.keys.forget();
    return removed;
  }

  /** Cancels a pending invitation of the fund: its link stops working (410). An accepted one: 409. */
  async cancelInvitation(p: Principal, id: string): Promise<void> {
    const fundId = fundIdOf(p);
    await this.users.transaction(async (m) => {
      const inv = await this.invitations.with(m).ofFund(fundId, id, true);
      if (!inv) throw notFound(`invitation ${id}`);
      if (inv.accepted_at)
        throw new ProblemError('invalid_state', 'this invitation was already accepted; remove the member instead');
      await this.invitations.with(m).cancel(id);
    });
  }

  async serviceAccounts(p: Principal): Promise<ServiceAccountDto[]> {
    return (await this.users.serviceAccounts(fundIdOf(p))).map((a) => ({
      id: a.id,
      name: a.name,
      createdAt: a.created_at.toISOString(),
    }));
  }

  /** A service identity is named `<fund-slug>/<name>`; it can never hold proposals:review. */
  async createServiceAccount(p: Principal, name: string): Promise<ServiceAccountDto> {
    const full = `${p.fund!.slug}/${name}`;
    const row = await this.users.createServiceAccount(fundIdOf(p), full);
    if (!row)
      throw new ProblemError('invalid_state', `a service identity named "${full}" already exists`, [
        { field: 'name', message: 'already taken' },
      ]);
    return { id: row.id, name: row.name, createdAt: row.created_at.toISOString() };
  }

  /** Public: what an invitation is for. 404 unknown, 410 used or expired. */
  async preview(token: string): Promise<InvitationPreviewDto> {
    const row = await this.usable(token);
    return {
      fund: { slug: row.fund_slug, name: row.fund_name },
      role: row.role,
      email: row.email,
      expiresAt: row.expires_at.toISOString(),
    };
  }

  /** 404 unknown, 410 expired; used: 410 to look at (`usedCode`), 409 to accept again. */
  private async usable(
    token: string,
    row?: InvitationRow | null,
    usedCode: 'gone' | 'invalid_state' = 'gone',
  ): Promise<InvitationRow> {
    const inv = row === undefined ? await this.invitations.byTokenHash(hashSecret(token)) : row;
    if (!inv) throw new ProblemError('not_found', 'this invitation link is not valid');
    if (inv.accepted_at) throw new ProblemError(usedCode, 'this invitation was already used');
    if (inv.cancelled_at)
      throw new ProblemError('gone', "this invitation was cancelled by the fund's admins; ask them for a new one");
    if (inv.expires_at.getTime() <= Date.now())
      throw new ProblemError('gone', 'this invitation has expired; ask the fund admin for a new one');
    return inv;
  }

  /**
   * The invitation, locked in the order member removal takes its locks (the fund's member rows, then
   * the invitation), and still valid: its sender is an admin of the fund now (an invitation created
   * while its sender was being removed escaped the removal's cancellation).
   */
  private async lockedForAcceptance(m: EntityManager, token: string): Promise<InvitationRow> {
    const seen = await this.usable(
      token,
      await this.invitations.with(m).byTokenHash(hashSecret(token)),
      'invalid_state',
    );
    const members = await this.users.with(m).lockMembers(seen.fund_id);
    const inv = await this.usable(
      token,
      await this.invitations.with(m).byTokenHash(hashSecret(token), true),
      'invalid_state',
    );
    if (members.find((x) => x.user_id === inv.invited_by)?.role !== 'admin')
      throw new ProblemError(
        'gone',
        'the admin who sent this invitation no longer administers the fund; ask a current admin for a new one',
      );
    return inv;
  }

  /**
   * Accepts an invitation: as the signed-in person with the invited email, or as a new person
   * (displayName + password; signed in afterwards). One transaction; a second use is 409.
   */
  async accept(
    req: FastifyRequest,
    reply: FastifyReply,
    token: string,
    body: { displayName?: string; password?: string },
  ): Promise<SessionDto> {
    this.auth.assertSameOrigin(req);
    await this.usable(token, undefined, 'invalid_state'); // 404 / 409 / 410 before any work
    const session = await this.auth.current(req);
    const passwordHash = session || !body.password ? null : await hashPassword(body.password);
    const userId = await this.users.transaction(async (m) => {
      const inv = await this.lockedForAcceptance(m, token);
      let id: string;
      if (session) {
        if (session.email !== inv.email)
          throw new ProblemError(
            'forbidden',
            `this invitation is for ${inv.email}; sign in as that person to accept it`,
          );
        id = session.user_id;
      } else {
        if (!body.displayName || !passwordHash) {
          throw new ProblemError('missing_parameter', 'a new person needs displayName and password', [
            ...(body.displayName ? [] : [{ field: 'displayName', message: 'is required' }]),
            ...(passwordHash ? [] : [{ field: 'password', message: 'is required' }]),
          ]);
        }
        if (await this.users.with(m).byEmail(inv.email))
          throw new ProblemError(
            'invalid_state',
            `${inv.email} already has an account: sign in first, then open the link again`,
          );
        id = (
          await this.users
            .with(m)
            .createPerson({ email: inv.email, displayName: body.displayName, passwordHash, plan: 'free' })
        ).userId;
      }
      await this.users.with(m).grantAtLeast(inv.fund_id, id, inv.role);
      await this.invitations.with(m).markAccepted(inv.id, id);
      return id;
    });
    this.keys.forget();
    if (!session) await this.auth.start(req, reply, userId, false);
    return this.signIn.sessionViewOf(req, userId);
  }
}
