import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A maker withdraws their own pending proposal: `proposals.status` gains `withdrawn`, recorded in
 * columns of its own (who: account, key — null through a console session —, person; when; an
 * optional note). The decision columns stay the checker's: `decided_at` is set exactly when a
 * checker approved or rejected, `withdrawn_at` exactly when the maker withdrew, and a withdrawn
 * proposal has no decision (a row is never both).
 *
 * down refuses while withdrawn proposals exist: mapped to `rejected` they would claim a checker's
 * decision nobody made, mapped back to `pending` they would return to the review queue and could be
 * approved. Delete them (or keep this migration) first; the error says how many there are.
 */
export class ProposalWithdrawal1763802000000 implements MigrationInterface {
  name = 'ProposalWithdrawal1763802000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE proposals
        ADD COLUMN withdrawn_at timestamptz,
        ADD COLUMN withdrawn_by_account_id uuid REFERENCES accounts(id),
        ADD COLUMN withdrawn_by_key_id uuid REFERENCES api_keys(id),
        ADD COLUMN withdrawn_by_user_id uuid REFERENCES users(id),
        ADD COLUMN withdrawal_note text,
        DROP CONSTRAINT proposals_status_check,
        ADD CONSTRAINT proposals_status_check CHECK (status IN ('pending', 'approved', 'rejected', 'withdrawn')),
        DROP CONSTRAINT proposals_check,
        ADD CONSTRAINT proposals_decided_check CHECK ((status IN ('approved', 'rejected')) = (decided_at IS NOT NULL)),
        ADD CONSTRAINT proposals_withdrawn_check CHECK (
          (status = 'withdrawn') = (withdrawn_at IS NOT NULL)
          AND (status <> 'withdrawn' OR withdrawn_by_account_id IS NOT NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    const [{ n }] = await q.query(`SELECT count(*)::int AS n FROM proposals WHERE status = 'withdrawn'`);
    if (n > 0) {
      throw new Error(
        `ProposalWithdrawal down: ${n} withdrawn proposal(s) have no status before this migration ` +
          `(rejected would claim a checker's decision, pending would put them back in the review queue); ` +
          `delete them (DELETE FROM proposals WHERE status = 'withdrawn') or keep this migration`,
      );
    }
    await q.query(`
      ALTER TABLE proposals
        DROP CONSTRAINT proposals_withdrawn_check,
        DROP CONSTRAINT proposals_decided_check,
        ADD CONSTRAINT proposals_check CHECK ((status = 'pending') = (decided_at IS NULL)),
        DROP CONSTRAINT proposals_status_check,
        ADD CONSTRAINT proposals_status_check CHECK (status IN ('pending', 'approved', 'rejected')),
        DROP COLUMN withdrawal_note,
        DROP COLUMN withdrawn_by_user_id,
        DROP COLUMN withdrawn_by_key_id,
        DROP COLUMN withdrawn_by_account_id,
        DROP COLUMN withdrawn_at`);
  }
}
