import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `funds.nav_restart_from`: the first date a NAV run left un-(re)valued. A run writes its days in
 * batches, each its own transaction; a re-run that cascades through later dates and stops midway
 * (a crash, a database error, a failed day) left later dates holding complete runs valued from the
 * superseded chain, and the next run went on from the last complete date as if the chain were
 * whole. Each batch now records where the run must go on from (NULL once it reached its end), and
 * every run starts there at the latest.
 */
export class NavRestartFrom1763801000000 implements MigrationInterface {
  name = 'NavRestartFrom1763801000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE funds ADD COLUMN nav_restart_from date`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE funds DROP COLUMN nav_restart_from`);
  }
}
