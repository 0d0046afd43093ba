import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { developmentKeyRing, parseKeyRing, SecretSealer } from '../src/common/crypto/sealer';

/** The same sealer the app builds from config: SECRETS_KEY's ring, or the public development ring when unset. */
function sealerFromEnv(): SecretSealer {
  const raw = process.env.SECRETS_KEY;
  return new SecretSealer(raw ? parseKeyRing(raw) : developmentKeyRing());
}

type Row = { id: string; signing_secret: string; previous_signing_secret: string | null };

/**
 * Webhook signing secrets were stored in plain text: a backup or replica reader could sign events
 * as fundgate. Seals every stored secret (current and previous) with AES-256-GCM under SECRETS_KEY;
 * values already sealed are left as they are. down() opens them again.
 */
export class SealWebhookSecrets1763800510000 implements MigrationInterface {
  name = 'SealWebhookSecrets1763800510000';

  async up(q: QueryRunner): Promise<void> {
    const sealer = sealerFromEnv();
    await this.rewrite(q, (v) => (sealer.isSealed(v) ? v : sealer.seal(v)));
    await q.query(
      `COMMENT ON COLUMN webhook_subscriptions.signing_secret IS 'secret: sealed with AES-256-GCM under SECRETS_KEY (v1.kid.iv.tag.ciphertext); shown once at creation/rotation'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const sealer = sealerFromEnv();
    await this.rewrite(q, (v) => (sealer.isSealed(v) ? sealer.unseal(v) : v));
    await q.query(
      `COMMENT ON COLUMN webhook_subscriptions.signing_secret IS 'secret: shown once at creation/rotation, never served again'`,
    );
  }

  private async rewrite(q: QueryRunner, f: (v: string) => string): Promise<void> {
    const rows: Row[] = await q.query(
      'SELECT id, signing_secret, previous_signing_secret FROM webhook_subscriptions FOR UPDATE',
    );
    for (const r of rows) {
      const current = f(r.signing_secret);
      const previous = r.previous_signing_secret === null ? null : f(r.previous_signing_secret);
      if (current === r.signing_secret && previous === r.previous_signing_secret) continue;
      await q.query(
        'UPDATE webhook_subscriptions SET signing_secret = $2, previous_signing_secret = $3 WHERE id = $1',
        [r.id, current, previous],
      );
    }
  }
}
