import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { fundIdOf, type Principal } from '../common/auth/principal';
import { ROLE_SCOPES } from '../common/auth/scopes';
import { SecretSealer } from '../common/crypto/sealer';
import { invalidParameter, notFound, ProblemError, unprocessable } from '../common/errors/problem';
import { CursorCodec } from '../common/pagination/cursor';
import { APP_CONFIG, AppConfig } from '../config/config';
import {
  CreatedWebhookDto,
  CreateWebhookDto,
  DeliveryDto,
  DeliveryListDto,
  RotatedSecretDto,
  TestEventDto,
  UpdateWebhookDto,
  WebhookDto,
  WebhookListDto,
} from './dto/webhook.dto';
import { EventOutbox } from './event-outbox';
import { TEST_EVENT_TYPE } from './event-types';
import { newSigningSecret } from './signing';
import { assertPublicTarget } from './target-guard';
import { AttemptRow, DeliveryRow, SubscriptionRow, WebhooksRepository } from './webhooks.repository';
import { KeysRepository } from '../keys/keys.repository';

const ROTATION_OVERLAP_MS = 24 * 3_600_000;
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function subscriptionView(s: SubscriptionRow): WebhookDto {
  const overlap =
    s.previous_secret_expires_at && new Date(s.previous_secret_expires_at) > new Date()
      ? iso(s.previous_secret_expires_at)
      : null;
  return {
    id: s.id,
    url: s.url,
    eventTypes: s.event_types,
    description: s.description,
    enabled: s.enabled,
    disabledReason: s.disabled_reason,
    previousSecretExpiresAt: overlap,
    createdAt: iso(s.created_at)!,
    updatedAt: iso(s.updated_at)!,
  };
}

function deliveryView(d: DeliveryRow, attempts: AttemptRow[]): DeliveryDto {
  return {
    id: d.id,
    eventId: d.event_id,
    eventType: d.event_type,
    status: d.status,
    attemptCount: d.attempt_count,
    createdAt: iso(d.created_at)!,
    lastAttemptAt: iso(d.last_attempt_at),
    completedAt: iso(d.completed_at),
    nextAttemptAt: iso(d.next_attempt_at),
    attempts: attempts.map((a) => ({
      attemptNo: a.attempt_no,
      attemptedAt: iso(a.attempted_at)!,
      statusCode: a.status_code,
      latencyMs: a.latency_ms,
      error: a.error,
      responseSnippet: a.response_snippet,
    })),
  };
}

/** Subscriptions a fund may have (not deleted): every event fans out to each, and the list is one page. */
export const MAX_SUBSCRIPTIONS_PER_FUND = 25;

/** Subscription management for the calling key's fund (scope webhooks:manage). */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly repo: WebhooksRepository,
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly cursors: CursorCodec,
    private readonly sealer: SecretSealer,
    private readonly outbox: EventOutbox,
    private readonly keys: KeysRepository,
  ) {}

  private async checkTarget(raw: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw invalidParameter('url', 'must be an absolute http(s) URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidParameter('url', 'must use https or http');
    if (url.protocol === 'http:' && this.config.webhookRequireHttps)
      throw invalidParameter('url', 'must use https: fund events are not sent in cleartext (WEBHOOK_REQUIRE_HTTPS)');
    if (url.username || url.password) throw invalidParameter('url', 'must not carry credentials');
    if (url.toString().length > 2048)
      throw invalidParameter('url', 'must be at most 2048 characters once percent-encoded'); // what is stored
    try {
      await assertPublicTarget(url, this.config.webhookAllowPrivate);
    } catch (err) {
      throw unprocessable(`url: ${(err as Error).message}; webhook targets must be public`, [
        { field: 'url', message: 'resolves to a private, loopback or link-local address or does not resolve' },
      ]);
    }
    return url.toString();
  }

  async create(p: Principal, body: CreateWebhookDto): Promise<CreatedWebhookDto> {
    const url = await this.checkTarget(body.url);
    const secret = newSigningSecret();
    // Stored sealed (AES-256-GCM under SECRETS_KEY); the plaintext is shown once, here.
    const row = await this.asLiveCaller(p, async (m) => {
      const repo = this.repo.with(m);
      if ((await repo.lockedSubscriptionCount(fundIdOf(p))) >= MAX_SUBSCRIPTIONS_PER_FUND)
        throw new ProblemError(
          'invalid_state',
          `this fund has ${MAX_SUBSCRIPTIONS_PER_FUND} webhook subscriptions, the most it may have: delete one, or subscribe an existing endpoint to more event types`,
        );
      const created = await repo.insertSubscription({
        id: randomUUID(),
        fundId: fundIdOf(p),
        url,
        eventTypes: body.eventTypes,
        description: body.description ?? null,
        secret: this.sealer.seal(secret),
        keyId: p.keyId,
        userId: p.userId,
      });
      await repo.addHolder(created.id, p, 'created');
      return created;
    });
    return { ...subscriptionView(row), signingSecret: secret };
  }

  /**
   * Creating, changing or rotating a subscription chooses where fund events go or hands out a
   * secret: it runs in one transaction with the caller still entitled, locked as minting locks (the
   * person's membership, then the key): a member being removed, or a key revoked but still cached on
   * another instance, waits for the removal or revocation and is then refused; one that got in first
   * commits before it (with its holder row), and the removal's or revocation's disabling then sees
   * the subscription.
   */
  private asLiveCaller<T>(p: Principal, work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(async (m) => {
      if (p.userId && p.fund) {
        const role = await this.keys.with(m).lockedRole(p.fund.id, p.userId);
        if (!role || !ROLE_SCOPES[role].includes('webhooks:manage'))
          throw new ProblemError('insufficient_scope', 'managing webhooks needs the admin role on this fund');
      }
      if (p.keyId && !(await this.keys.with(m).lockLiveKey(p.keyId)))
        throw new ProblemError('unauthenticated', 'this key has been revoked or has expired');
      return work(m);
    });
  }

  async list(p: Principal): Promise<WebhookListDto> {
    const rows = await this.repo.subscriptionsOfFund(fundIdOf(p));
    return { items: rows.map(subscriptionView), total: rows.length };
  }

  async get(p: Principal, id: string): Promise<WebhookDto> {
    return subscriptionView(await this.subscription(p, id));
  }

  private async subscription(p: Principal, id: string): Promise<SubscriptionRow> {
    const row = await this.repo.subscriptionOfFund(fundIdOf(p), id); // a UUID: the route's uuidParam checked it
    if (!row) throw notFound(`webhook ${id}`);
    return row;
  }

  async update(p: Principal, id: string, body: UpdateWebhookDto): Promise<WebhookDto> {
    const before = await this.subscription(p, id);
    const url = body.url !== undefined ? await this.checkTarget(body.url) : undefined;
    const row = await this.asLiveCaller(p, async (m) => {
      const repo = this.repo.with(m);
      const updated = await repo.updateSubscription(fundIdOf(p), id, {
        url,
        eventTypes: body.eventTypes,
        description: body.description,
        enabled: body.enabled,
      });
      // a holder is who changed where it goes or turned it back on: a no-op (same URL, already enabled) is not
      if (updated && url !== undefined && url !== before.url) await repo.addHolder(id, p, 'url_changed');
      if (updated && body.enabled === true && !before.enabled) await repo.addHolder(id, p, 'enabled');
      return updated;
    });
    if (!row) throw notFound(`webhook ${id}`);
    return subscriptionView(row);
  }

  async remove(p: Principal, id: string): Promise<void> {
    await this.subscription(p, id);
    if (!(await this.repo.deleteSubscription(fundIdOf(p), id))) throw notFound(`webhook ${id}`);
  }

  async rotate(p: Principal, id: string): Promise<RotatedSecretDto> {
    await this.subscription(p, id);
    const secret = newSigningSecret();
    const overlapUntil = new Date(Date.now() + ROTATION_OVERLAP_MS);
    const row = await this.asLiveCaller(p, async (m) => {
      const rotated = await this.repo.with(m).rotateSecret(fundIdOf(p), id, this.sealer.seal(secret), overlapUntil);
      if (rotated) await this.repo.with(m).addHolder(id, p, 'secret_rotated');
      return rotated;
    });
    if (!row) throw notFound(`webhook ${id}`);
    return { id, signingSecret: secret, previousSecretExpiresAt: overlapUntil.toISOString() };
  }

  /** A `webhook.test` event for this one subscription, through the same outbox as real events. */
  async sendTest(p: Principal, id: string): Promise<TestEventDto> {
    const sub = await this.subscription(p, id);
    const event = await this.db.transaction((m) =>
      this.outbox.emit(
        m,
        sub.fund_id,
        TEST_EVENT_TYPE,
        { subscriptionId: sub.id, message: 'test event from fundgate' },
        sub.id,
      ),
    );
    return { eventId: event.id, type: event.type, createdAt: event.createdAt };
  }

  async deliveries(p: Principal, id: string, limit = 100, cursor?: string): Promise<DeliveryListDto> {
    const sub = await this.subscription(p, id);
    const after = cursor
      ? this.cursors.decode(`deliveries:${sub.id}`, cursor, { createdAt: 'timestamp', id: 'uuid' })
      : null;
    const rows = await this.repo.deliveriesOfSubscription(sub.id, limit + 1, after);
    const page = rows.slice(0, limit);
    const attempts = await this.repo.attemptsOf(page.map((d) => d.id));
    const byDelivery = new Map<string, AttemptRow[]>();
    for (const a of attempts) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), a]);
    const last = page[page.length - 1];
    const hasMore = rows.length > limit;
    return {
      items: page.map((d) => deliveryView(d, byDelivery.get(d.id) ?? [])),
      hasMore,
      nextCursor:
        hasMore && last
          ? this.cursors.encode(`deliveries:${sub.id}`, {
              createdAt: last.created_key,
              id: last.id,
            })
          : null,
    };
  }

  /**
   * An ended delivery — failed, cancelled, or succeeded and lost on the receiver's side — is sent
   * again from its first scheduled attempt, with the same webhook-id and body (receivers dedupe on it).
   */
  async retry(p: Principal, id: string, deliveryId: string): Promise<DeliveryDto> {
    const sub = await this.subscription(p, id);
    const found = await this.repo.deliveryOfSubscription(sub.id, deliveryId);
    if (!found) throw this.deliveryNotFound(deliveryId);
    if (!sub.enabled && found.event_type !== TEST_EVENT_TYPE) {
      // a disabled subscription's deliveries are not sent (test events are): a retry would be cancelled at once
      throw new ProblemError(
        'invalid_state',
        `subscription ${sub.id} is disabled (${sub.disabled_reason ?? 'by an admin'}); enable it, then retry`,
      );
    }
    if (!(await this.repo.requeueDelivery(sub.id, deliveryId))) {
      // pending, or deleted by the retention sweep since it was read
      const now = await this.repo.deliveryOfSubscription(sub.id, deliveryId);
      if (!now) throw this.deliveryNotFound(deliveryId);
      throw new ProblemError(
        'invalid_state',
        `delivery ${deliveryId} is ${now.status}; only an ended delivery (succeeded, failed or cancelled) can be sent again`,
      );
    }
    const row = (await this.repo.deliveryOfSubscription(sub.id, deliveryId))!;
    return deliveryView(row, await this.repo.attemptsOf([deliveryId]));
  }

  /** A delivery that is not there: never was, or was deleted by retention WEBHOOK_RETENTION_DAYS after it ended. */
  private deliveryNotFound(deliveryId: string): ProblemError {
    const days = this.config.webhookRetentionDays;
    const kept = days ? `; ended deliveries are deleted ${days} days after they end (WEBHOOK_RETENTION_DAYS)` : '';
    return new ProblemError('not_found', `delivery ${deliveryId} was not found${kept}`);
  }
}
