import { type MigrationInterface, type QueryRunner } from 'typeorm';

const OLD = 'annual, compounded daily (ACT/365)';
const NEW = 'annual effective rate, accrued daily: (1 + h)^(days/365) (ACT/365)';

/**
 * The hurdle label said "compounded daily", which at 8 % implies 8.33 % a year; the engine grows the
 * threshold by (1 + h)^(days / 365), an 8.00 % effective annual rate (the NAV audit). The default and
 * the funds still on it now say what the engine does.
 */
export class HurdleCompoundingLabel1763801500000 implements MigrationInterface {
  name = 'HurdleCompoundingLabel1763801500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE funds ALTER COLUMN hurdle_compounding SET DEFAULT '${NEW}'`);
    await q.query(`UPDATE funds SET hurdle_compounding = $1 WHERE hurdle_compounding = $2`, [NEW, OLD]);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE funds ALTER COLUMN hurdle_compounding SET DEFAULT '${OLD}'`);
    await q.query(`UPDATE funds SET hurdle_compounding = $1 WHERE hurdle_compounding = $2`, [OLD, NEW]);
  }
}
