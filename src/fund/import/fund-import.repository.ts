import { fundScopedId } from '../ids';
import { chartWithOverrides } from '../ledger/chart-of-accounts';
import type { CsvFileSpec, StoredChange } from './csv-files';
import { bookingDates, restartNavFrom } from '../nav/booking-calendar';
import type { FundDefinition } from './fund-definition';
import { STRESS_PRESETS } from './stress-presets';
import { SqlRepository } from '../../database/sql-repository';
import { isLockWaitTimeout, navInputsLockKey } from '../../database/sql-fragments';

export interface ImportedFundRow {
  id: string;
  base_currency: string;
  administrator: string | null;
  inception_date: string | null;
}

/** The importer's SQL, run on the import transaction's query runner. */
/** A fund.json value the books rest on, as stored; `reason` when the refusal needs its own words. */
export interface TermChange {
  path: string;
  stored: string;
  reason?: string;
}

export class FundImportRepository extends SqlRepository {
  /**
   * Takes the fund's NAV-inputs lock for this transaction (waiting for a NAV run in progress), before
   * the fund's row lock; nothing to take for a fund that does not exist yet.
   */
  async lockNavInputs(fund: { slug: string } | { id: string }): Promise<void> {
    const [column, value] = 'slug' in fund ? ['slug', fund.slug] : ['id', fund.id];
    try {
      await this.q.query(`SELECT pg_advisory_xact_lock(${navInputsLockKey('id')}) FROM funds WHERE ${column} = $1`, [
        value,
      ]);
    } catch (err) {
      if (isLockWaitTimeout(err))
        throw new Error(`a NAV run of fund ${value} is still in progress; import again once it has finished`, {
          cause: err,
        });
      throw err;
    }
  }

  async lockFundBySlug(slug: string): Promise<ImportedFundRow | undefined> {
    return (
      await this.q.query(
        `SELECT id, base_currency, administrator, inception_date::text AS inception_date FROM funds WHERE slug = $1 FOR UPDATE`,
        [slug],
      )
    )[0];
  }

  /** Whether the fund is synthetic, with its row locked (null: no such fund). */
  async lockSyntheticFlag(fundId: string): Promise<boolean | null> {
    const [fund] = await this.q.query(`SELECT is_synthetic FROM funds WHERE id = $1 FOR UPDATE`, [fundId]);
    return fund ? fund.is_synthetic : null;
  }

  /** Deletes every row of the fund from these tables (children first), past the purge guard of this transaction. */
  async deleteBooks(fundId: string, tables: readonly string[]): Promise<void> {
    await this.q.query(`SET LOCAL fundgate.purge = 'on'`);
    for (const table of tables) await this.q.query(`DELETE FROM ${table} WHERE fund_id = $1`, [fundId]);
  }

  async cashConnectionCode(fundId: string): Promise<string | null> {
    return (await this.q.query(`SELECT cash_connection_code FROM funds WHERE id = $1`, [fundId]))[0]
      .cash_connection_code;
  }

  /**
   * What a re-imported fund.json would change that the books already rest on: each stored class's
   * terms (JSON path, stored value), and the inception date once a NAV run exists.
   */
  async termChanges(fundId: string, d: FundDefinition): Promise<TermChange[]> {
    const terms: [string, string, string, (c: FundDefinition['shareClasses'][number]) => unknown][] = [
      ['currency', 'currency', 'text', (c) => c.currency],
      ['mgmt_fee_annual_rate', 'mgmtFeeAnnualRate', 'numeric', (c) => c.mgmtFeeAnnualRate],
      ['perf_fee_rate', 'perfFeeRate', 'numeric', (c) => c.perfFeeRate],
      ['hurdle_annual_rate', 'hurdleAnnualRate', 'numeric', (c) => c.hurdleAnnualRate],
      ['crystallization_frequency', 'crystallizationFrequency', 'text', (c) => c.crystallizationFrequency],
      ['fee_exempt', 'feeExempt', 'boolean', (c) => c.feeExempt],
      ['launch_date', 'launchDate', 'date', (c) => c.launchDate],
      ['initial_nav_per_unit', 'initialNavPerUnit', 'numeric', (c) => c.initialNavPerUnit],
    ];
    const rows: { i: number; term: string; stored: string }[] = await this.q.query(
      `SELECT c.i::int - 1 AS i, t.term, t.stored FROM unnest($2::text[], ${terms.map(([, , type], k) => `$${k + 3}::${type}[]`).join(', ')})
               WITH ORDINALITY AS c(name, ${terms.map(([col]) => col).join(', ')}, i)
         JOIN share_classes s ON s.fund_id = $1 AND s.name = c.name
         CROSS JOIN LATERAL (VALUES ${terms
           .map(
             ([col, path, type]) =>
               `('${path}', s.${col} IS DISTINCT FROM c.${col}, ${type === 'numeric' ? `trim_scale(s.${col})` : `s.${col}`}::text)`,
           )
           .join(', ')}) AS t(term, changed, stored)
        WHERE t.changed ORDER BY c.i`,
      [fundId, d.shareClasses.map((c) => c.name), ...terms.map(([, , , of]) => d.shareClasses.map(of))],
    );
    const inception = await this.inceptionChange(fundId, d.inceptionDate);
    return [
      ...(inception ? [inception] : []),
      ...rows.map((r) => ({ path: `shareClasses[${r.i}].${r.term}`, stored: r.stored ?? 'null' })),
    ];
  }

  /**
   * A new inception date is refused once a NAV run exists, and before that when stored rows would
   * fall before it (the rows the import refuses before inception: trades, transfers, flows,
   * administrator NAVs, and expenses accrued on or before it), nor past a journal entry an approved
   * proposal booked (dated after inception, as an expense's accrual is).
   */
  private async inceptionChange(fundId: string, next: string): Promise<TermChange | null> {
    const [fund] = await this.q.query(
      `SELECT f.inception_date::text AS inception, EXISTS (SELECT 1 FROM nav_runs WHERE fund_id = f.id) AS valued,
              LEAST((SELECT min(trade_date) FROM trades WHERE fund_id = f.id),
                    (SELECT min(transfer_date) FROM transfers WHERE fund_id = f.id),
                    (SELECT min(dealing_date) FROM capital_activity WHERE fund_id = f.id),
                    (SELECT min(valuation_date) FROM admin_navs WHERE fund_id = f.id),
                    (SELECT min(accrual_date) - 1 FROM expenses WHERE fund_id = f.id),
                    (SELECT min(entry_date) - 1 FROM journal_entries WHERE fund_id = f.id))::text AS latest
         FROM funds f WHERE f.id = $1`,
      [fundId],
    );
    if (!fund || fund.inception === next) return null;
    if (fund.valued) return { path: 'inceptionDate', stored: fund.inception };
    if (fund.latest && fund.latest < next)
      return {
        path: 'inceptionDate',
        stored: fund.inception,
        reason: `cannot move to ${next}: rows the books already hold need an inception on or before ${fund.latest}`,
      };
    return null;
  }

  /** The fund, its share classes, chart of accounts and stress presets from fund.json (re-import updates). */
  async upsertFund(fundId: string, slug: string, d: FundDefinition, synthetic: boolean): Promise<void> {
    await this.q.query(
      `INSERT INTO funds (id, slug, name, base_currency, is_synthetic, inception_date, aum_target, administrator, cash_connection_code,
                          dealing_frequency, subscription_notice_days, redemption_notice_days, settlement_days)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (slug) DO UPDATE SET name = EXCLUDED.name, is_synthetic = funds.is_synthetic OR EXCLUDED.is_synthetic,
         inception_date = EXCLUDED.inception_date, aum_target = EXCLUDED.aum_target, administrator = EXCLUDED.administrator,
         cash_connection_code = EXCLUDED.cash_connection_code, dealing_frequency = EXCLUDED.dealing_frequency,
         subscription_notice_days = EXCLUDED.subscription_notice_days, redemption_notice_days = EXCLUDED.redemption_notice_days,
         settlement_days = EXCLUDED.settlement_days`,
      [
        fundId,
        slug,
        d.name,
        d.baseCurrency,
        synthetic,
        d.inceptionDate,
        d.aumTarget,
        d.administrator,
        d.cashConnection,
        d.dealing.frequency,
        d.dealing.subscriptionNoticeDays,
        d.dealing.redemptionNoticeDays,
        d.dealing.settlementDays,
      ],
    );
    for (const [i, c] of d.shareClasses.entries()) {
      await this.q.query(
        `INSERT INTO share_classes (id, fund_id, name, currency, mgmt_fee_annual_rate, perf_fee_rate, hurdle_annual_rate,
                                    crystallization_frequency, fee_exempt, status, launch_date, initial_nav_per_unit, sort_order)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         ON CONFLICT (fund_id, name) DO UPDATE SET status = EXCLUDED.status`,
        [
          fundScopedId(fundId, 'share-class', c.name),
          fundId,
          c.name,
          c.currency,
          c.mgmtFeeAnnualRate,
          c.perfFeeRate,
          c.hurdleAnnualRate,
          c.crystallizationFrequency,
          c.feeExempt,
          c.status,
          c.launchDate,
          c.initialNavPerUnit,
          i,
        ],
      );
    }
    for (const a of chartWithOverrides(d.chartOfAccounts)) {
      await this.q.query(
        `INSERT INTO chart_of_accounts (fund_id, code, name, account_type, normal_balance) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (fund_id, code) DO UPDATE SET name = EXCLUDED.name`,
        [fundId, a.code, a.name, a.accountType, a.normalBalance],
      );
    }
    for (const p of STRESS_PRESETS) {
      await this.q.query(
        `INSERT INTO stress_presets (fund_id, preset_id, name, description, window_start, window_end, source)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
        [fundId, p.id, p.name, p.description, p.windowStart, p.windowEnd, p.source],
      );
      const rows = [
        ...Object.entries(p.returns).map(([k, v]) => ['asset', k, v]),
        ...Object.entries(p.fallbacks).map(([k, v]) => ['asset_class', k, v]),
      ];
      await this.q.query(
        `INSERT INTO stress_preset_returns (fund_id, preset_id, kind, key, return_ratio)
         SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::numeric[]) ON CONFLICT DO NOTHING`,
        [fundId, p.id, rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])],
      );
    }
  }

  async instruments(fundId: string): Promise<{ id: string; symbol: string; asset_class: string }[]> {
    return this.q.query(`SELECT id, symbol, asset_class FROM instruments WHERE fund_id = $1`, [fundId]);
  }

  async connections(fundId: string): Promise<{ id: string; code: string; mode: string }[]> {
    return this.q.query(`SELECT id, code, mode FROM connections WHERE fund_id = $1`, [fundId]);
  }

  async investors(fundId: string): Promise<{ id: string; external_id: string }[]> {
    return this.q.query(`SELECT id, external_id FROM investors WHERE fund_id = $1`, [fundId]);
  }

  async shareClasses(fundId: string): Promise<{ id: string; name: string }[]> {
    return this.q.query(`SELECT id, name FROM share_classes WHERE fund_id = $1`, [fundId]);
  }

  /** Inception and the last published NAV (the books are closed through it). */
  bookingDates(fundId: string): Promise<{ inception: string | null; closedThrough: string | null }> {
    return bookingDates(this.q, fundId);
  }

  /** The NAV is redone from `date` when a complete run valued it without what this import brought. */
  restartNavFrom(fundId: string, date: string): Promise<boolean> {
    return restartNavFrom(this.q, fundId, date);
  }

  /**
   * The batch's rows whose natural key is already stored, by ordinal (1-based): the compared columns
   * that differ, and both rows as text when any does (numbers without trailing zeros).
   */
  async storedRows(
    spec: CsvFileSpec,
    fundId: string,
    columns: (string | null)[][],
  ): Promise<Map<number, StoredChange>> {
    const names = spec.insert.map(([c]) => c);
    const keys = keyColumns(spec);
    const compared = names.filter((c) => !keys.includes(c) && !(spec.unchecked ?? []).includes(c));
    const text = (side: string) =>
      spec.insert
        .map(([c, t]) => `'${c}', ${t === 'numeric' ? `trim_scale(${side}.${c})` : `${side}.${c}`}::text`)
        .join(', ');
    const rows: {
      ord: number;
      changed: string[];
      stored: StoredChange['stored'] | null;
      incoming: StoredChange['incoming'] | null;
    }[] = await this.q.query(
      `WITH b AS (SELECT * FROM unnest(${spec.insert.map(([, t], i) => `$${i + 2}::${t}[]`).join(', ')})
                      WITH ORDINALITY AS b(${names.join(', ')}, ord)),
              d AS (SELECT b.ord, array_remove(ARRAY[${compared
                .map((c) => `CASE WHEN t.${c} IS DISTINCT FROM b.${c} THEN '${c}' END`)
                .join(', ')}]::text[], NULL) AS changed, t AS t, b AS b
                      FROM b JOIN ${spec.table} t ON t.fund_id = $1 AND ${keys.map((k) => `t.${k} = b.${k}`).join(' AND ')})
         SELECT d.ord::int AS ord, d.changed,
                CASE WHEN cardinality(d.changed) > 0 THEN json_build_object(${text('(d.t)')}) END AS stored,
                CASE WHEN cardinality(d.changed) > 0 THEN json_build_object(${text('(d.b)')}) END AS incoming
           FROM d`,
      [fundId, ...columns],
    );
    return new Map(
      rows.map((r) => [r.ord, { changed: r.changed, stored: r.stored ?? {}, incoming: r.incoming ?? {} }]),
    );
  }

  /** Writes the file's updatable columns of the rows at these ordinals (1-based) of the batch; answers how many. */
  async updateRows(spec: CsvFileSpec, fundId: string, columns: (string | null)[][], ords: number[]): Promise<number> {
    if (ords.length === 0 || !spec.updatable?.length) return 0;
    const pick = columns.map((col) => ords.map((o) => col[o - 1]));
    const names = spec.insert.map(([c]) => c);
    const [rows] = await this.q.query(
      `UPDATE ${spec.table} t SET ${spec.updatable.map((c) => `${c} = b.${c}`).join(', ')}
         FROM unnest(${spec.insert.map(([, t], i) => `$${i + 2}::${t}[]`).join(', ')}) AS b(${names.join(', ')})
        WHERE t.fund_id = $1 AND ${keyColumns(spec)
          .map((k) => `t.${k} = b.${k}`)
          .join(' AND ')} RETURNING 1`,
      [fundId, ...pick],
    ); // an UPDATE answers [rows, count]
    return (rows as unknown[]).length;
  }

  /** One batch of a CSV file's rows (column arrays), ON CONFLICT DO NOTHING on its natural key; answers how many were new. */
  async insertBatch(spec: CsvFileSpec, fundId: string, columns: (string | null)[][]): Promise<number> {
    const sql = `WITH ins AS (
        INSERT INTO ${spec.table} (fund_id, ${spec.insert.map(([c]) => c).join(', ')})
        SELECT $1::uuid, * FROM unnest(${spec.insert.map(([, t], i) => `$${i + 2}::${t}[]`).join(', ')})
        ON CONFLICT ${spec.conflict} DO NOTHING RETURNING 1)
      SELECT count(*)::int AS n FROM ins`;
    const result: { n: number }[] = await this.q.query(sql, [fundId, ...columns]);
    return result[0].n;
  }
}

/** The natural key's columns (the conflict target without fund_id). */
export function keyColumns(spec: CsvFileSpec): string[] {
  return spec.conflict
    .replace(/[()]/g, '')
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== 'fund_id');
}
