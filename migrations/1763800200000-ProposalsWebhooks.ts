import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Maker-checker proposals, Idempotency-Key records, NAV publication, and webhooks: the event
 * outbox (written in the causing transaction), subscriptions, deliveries and every attempt.
 */
export class ProposalsWebhooks1763800200000 implements MigrationInterface {
  name = 'ProposalsWebhooks1763800200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE proposals (
        id uuid PRIMARY KEY,
        fund_id uuid NOT NULL REFERENCES funds(id),
        kind text NOT NULL CHECK (kind IN ('journal-entry', 'expense', 'capital-activity', 'lp-report')),
        status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
        payload jsonb NOT NULL,
        proposed_by_account_id uuid NOT NULL REFERENCES accounts(id),
        proposed_by_key_id uuid NOT NULL REFERENCES api_keys(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        decided_at timestamptz,
        decided_by_account_id uuid REFERENCES accounts(id),
        decided_by_key_id uuid REFERENCES api_keys(id),
        decision_note text,
        execution_ref text,
        CHECK ((status = 'pending') = (decided_at IS NULL)),
        CHECK (status <> 'approved' OR execution_ref IS NOT NULL)
      )`);
    await q.query(`CREATE INDEX proposals_fund_created_idx ON proposals (fund_id, created_at DESC, id DESC)`);
    await q.query(
      `CREATE INDEX proposals_fund_status_created_idx ON proposals (fund_id, status, created_at DESC, id DESC)`,
    );

    await q.query(`
      CREATE TABLE idempotency_keys (
        key_id uuid NOT NULL REFERENCES api_keys(id),
        idempotency_key text NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 255),
        route text NOT NULL,
        fingerprint text NOT NULL,
        state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
        lock_token uuid,
        locked_at timestamptz,
        response_status smallint,
        response_body jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (key_id, idempotency_key)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at)`);

    await q.query(
      `ALTER TABLE nav_runs ADD COLUMN published_at timestamptz, ADD COLUMN published_by_key_id uuid REFERENCES api_keys(id)`,
    );
    await q.query(
      `ALTER TABLE nav_runs ADD CONSTRAINT nav_runs_published_complete CHECK (published_at IS NULL OR status IN ('complete', 'superseded'))`,
    );

    await q.query(`
      CREATE TABLE webhook_subscriptions (
        id uuid PRIMARY KEY,
        fund_id uuid NOT NULL REFERENCES funds(id),
        url text NOT NULL CHECK (length(url) <= 2048),
        event_types text[] NOT NULL,
        description text,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason text,
        signing_secret text NOT NULL,
        previous_signing_secret text,
        previous_secret_expires_at timestamptz,
        created_by_key_id uuid NOT NULL REFERENCES api_keys(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await q.query(
      `COMMENT ON COLUMN webhook_subscriptions.signing_secret IS 'secret: shown once at creation/rotation, never served again'`,
    );
    await q.query(
      `CREATE INDEX webhook_subscriptions_fund_idx ON webhook_subscriptions (fund_id) WHERE deleted_at IS NULL`,
    );

    // The outbox: one row per event, written in the transaction that causes it. body is the exact
    // JSON text every delivery sends (and signs), fixed once so retries send identical bytes.
    await q.query(`
      CREATE TABLE webhook_events (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        fund_id uuid NOT NULL REFERENCES funds(id),
        type text NOT NULL,
        body text NOT NULL,
        only_subscription_id uuid REFERENCES webhook_subscriptions(id),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        dispatched_at timestamptz
      )`);
    await q.query(`CREATE INDEX webhook_events_undispatched_idx ON webhook_events (seq) WHERE dispatched_at IS NULL`);

    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        event_id text NOT NULL REFERENCES webhook_events(id),
        subscription_id uuid NOT NULL REFERENCES webhook_subscriptions(id),
        fund_id uuid NOT NULL REFERENCES funds(id),
        status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled')),
        generation integer NOT NULL DEFAULT 1,
        attempt_count integer NOT NULL DEFAULT 0,
        enqueued_at timestamptz,
        claimed_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        last_attempt_at timestamptz,
        completed_at timestamptz,
        UNIQUE (event_id, subscription_id)
      )`);
    await q.query(
      `CREATE INDEX webhook_deliveries_unenqueued_idx ON webhook_deliveries (created_at) WHERE enqueued_at IS NULL AND status = 'pending'`,
    );
    await q.query(
      `CREATE INDEX webhook_deliveries_subscription_idx ON webhook_deliveries (subscription_id, created_at DESC, id DESC)`,
    );

    // UNIQUE (delivery_id, attempt_no): a second worker can never record (or send) the same attempt.
    await q.query(`
      CREATE TABLE webhook_attempts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id),
        attempt_no integer NOT NULL,
        attempted_at timestamptz NOT NULL,
        status_code smallint,
        latency_ms integer,
        error text,
        response_snippet text,
        UNIQUE (delivery_id, attempt_no)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE webhook_attempts');
    await q.query('DROP TABLE webhook_deliveries');
    await q.query('DROP TABLE webhook_events');
    await q.query('DROP TABLE webhook_subscriptions');
    await q.query('ALTER TABLE nav_runs DROP CONSTRAINT nav_runs_published_complete');
    await q.query('ALTER TABLE nav_runs DROP COLUMN published_by_key_id, DROP COLUMN published_at');
    await q.query('DROP TABLE idempotency_keys');
    await q.query('DROP TABLE proposals');
  }
}
