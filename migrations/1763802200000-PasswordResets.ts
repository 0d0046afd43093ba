import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `password_resets`: a console password reset requested by email. Only the SHA-256 of the link's
 * token is stored (the token is only in the mail); 30 minutes, single use (`used_at`), and a newer
 * request closes the person's older open ones (`superseded_at`). Rows of a person older than a day
 * past their expiry are deleted when that person asks again.
 */
export class PasswordResets1763802200000 implements MigrationInterface {
  name = 'PasswordResets1763802200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE password_resets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL CHECK (expires_at > created_at),
        used_at timestamptz,
        superseded_at timestamptz
      )`);
    await q.query(`CREATE INDEX password_resets_user_idx ON password_resets (user_id, created_at DESC)`);
    await q.query(
      `COMMENT ON COLUMN password_resets.token_hash IS 'secret: SHA-256 of the reset link token, which is only in the mail'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE password_resets`);
  }
}
