import { type DataSource } from 'typeorm';
import { JournalRepository } from '../ledger/journal.repository';
import { FundImportRepository } from './fund-import.repository';

/** Child tables first; the funds row (and the API keys bound to it) stays. */
const FUND_BOOK_TABLES = [
  'nav_run_jobs',
  'nav_run_flows',
  'nav_run_assets',
  'nav_run_positions',
  'nav_run_lots',
  'nav_run_capital_accounts',
  'nav_run_classes',
  'journal_lines',
  'journal_entries',
  'nav_runs',
  'subscription_lots',
  'capital_activity',
  'expenses',
  'admin_nav_versions',
  'admin_navs',
  'lp_reports',
  'stress_preset_returns',
  'stress_presets',
  'chart_of_accounts',
  'prices',
  'trades',
  'transfers',
  'investors',
  'share_classes',
  'instruments',
  'connections',
];

/**
 * Empties the books of a SYNTHETIC fund so seed:demo can rebuild them from scratch. Refuses a
 * real fund: real books are corrected with reversing entries, never deleted.
 */
export async function purgeSyntheticFundBooks(ds: DataSource, fundId: string): Promise<void> {
  const [imports, journal] = [new FundImportRepository(ds), new JournalRepository(ds)];
  await ds.transaction(async (m) => {
    const books = imports.with(m);
    await books.lockNavInputs({ id: fundId });
    const synthetic = await books.lockSyntheticFlag(fundId);
    if (synthetic === null) return;
    if (!synthetic) throw new Error('refusing to purge the books of a fund that is not synthetic');
    await books.deleteBooks(fundId, FUND_BOOK_TABLES);
    // Same transaction: no reader can see the emptied books under the old generation's cache.
    await journal.with(m).bumpGeneration(fundId);
  });
}
