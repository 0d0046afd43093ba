import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `invitations.cancelled_at`: an admin cancels a pending invitation, and removing or demoting an
 * admin cancels the pending invitations they sent (before, a removed admin could accept an admin
 * invitation they had sent to a second mailbox of theirs and be admin again, for seven days).
 */
export class InvitationCancel1763801200000 implements MigrationInterface {
  name = 'InvitationCancel1763801200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE invitations ADD COLUMN cancelled_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE invitations DROP COLUMN cancelled_at`);
  }
}
