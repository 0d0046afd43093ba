import { ProblemError } from '../../common/errors/problem';
import { EXPOSURE_ANALYSIS_DEFAULTS, exposureAnalysis } from './exposure-analysis.engine';

// longs (one asset in two spellings and venues), shorts (minus sign and parentheses),
// cash and a stablecoin, an unclassified row; CRLF, a quoted thousands value, a blank line
const BOOK = [
  'Asset,Value,Venue,Class',
  'BTC,"1,000,000",Coinbase,crypto',
  'ETH,500000,Kraken,crypto',
  '',
  'btc,250000,Kraken,Crypto',
  'QQQ,-300000,IBKR,equity',
  'SPY,(200000),IBKR,equity',
  'USDC,400000,Coinbase,stablecoin',
  'USD,150000.50,Bank,cash',
  'GLD,100000,IBKR,',
].join('\r\n');

const run = (positionsCsv: string, navUsd: number | null = null) =>
  exposureAnalysis({ positionsCsv, navUsd, inputMethod: 'upload' });

describe('exposure-analysis engine', () => {
  it('long, short, gross, net and cash by hand, ratios over the sum of values', () => {
    const a = run(BOOK);
    expect(a.positionsCount).toBe(8);
    expect(a.assumptions).toMatchObject({
      ratioBasis: 'sumOfValues',
      ratioBasisUsd: 1_900_000.5,
      navUsd: null,
      positionsCsv: { isDefault: false, rows: 8 },
    });
    expect(a.exposure).toEqual({
      longUsd: 1_850_000,
      shortUsd: 500_000,
      grossUsd: 2_350_000,
      netUsd: 1_350_000,
      cashUsd: 550_000.5,
      longPct: 97.3684,
      shortPct: 26.3158,
      grossPct: 123.6842,
      netPct: 71.0526,
      cashPct: 28.9474,
    });
  });

  it('ratios over navUsd when given', () => {
    expect(run(BOOK, 2_000_000).exposure).toMatchObject({
      longPct: 92.5,
      shortPct: 25,
      grossPct: 117.5,
      netPct: 67.5,
      cashPct: 27.5,
    });
  });

  it('concentration combines an asset across venues and spellings and ignores cash', () => {
    const c = run(BOOK).concentration;
    expect(c.assetCount).toBe(5);
    expect(c.top5).toEqual([
      { asset: 'BTC', netUsd: 1_250_000, grossUsd: 1_250_000, weightPct: 53.1915 },
      { asset: 'ETH', netUsd: 500_000, grossUsd: 500_000, weightPct: 21.2766 },
      { asset: 'QQQ', netUsd: -300_000, grossUsd: 300_000, weightPct: 12.766 },
      { asset: 'SPY', netUsd: -200_000, grossUsd: 200_000, weightPct: 8.5106 },
      { asset: 'GLD', netUsd: 100_000, grossUsd: 100_000, weightPct: 4.2553 },
    ]);
    expect(c.top5WeightPct).toBe(100);
    expect(c.largestWeightPct).toBe(53.1915);
    // (1.25² + 0.5² + 0.3² + 0.2² + 0.1²) / 2.35²
    expect(c.herfindahlIndex).toBe(0.353554);
    expect(c.effectivePositions).toBe(2.83);
  });

  it('concentration is on net exposure by asset: a hedged pair is not a bet on its asset; venues stay gross', () => {
    // the auditor's book: BTC +1000 spot and −1000 perp, ETH 500 (gross-by-asset said BTC 80 %, HHI 0.68)
    const a = run(
      'Asset,Value,Venue,Class\nBTC,1000,Coinbase,crypto\nbtc,-1000,Deribit,crypto\nETH,500,Coinbase,crypto',
    );
    expect(a.concentration).toEqual({
      assetCount: 2,
      top5: [
        { asset: 'ETH', netUsd: 500, grossUsd: 500, weightPct: 100 },
        { asset: 'BTC', netUsd: 0, grossUsd: 2000, weightPct: 0 },
      ],
      top5WeightPct: 100,
      largestWeightPct: 100,
      herfindahlIndex: 1,
      effectivePositions: 1,
    });
    // a partial hedge weighs its residual: BTC net 600 of 600 + 400
    const partial = run('Asset,Value,Venue,Class\nBTC,1000,X,crypto\nBTC,-400,Y,crypto\nSOL,-400,X,crypto');
    expect(partial.concentration.top5).toEqual([
      { asset: 'BTC', netUsd: 600, grossUsd: 1400, weightPct: 60 },
      { asset: 'SOL', netUsd: -400, grossUsd: 400, weightPct: 40 },
    ]);
    expect(partial.concentration.herfindahlIndex).toBe(0.52); // 0.6² + 0.4²
    // the venue holds both legs: its share stays gross
    expect(a.byVenue.map((g) => [g.key, g.grossUsd, g.shareOfGrossPct])).toEqual([
      ['Coinbase', 1500, 60],
      ['Deribit', 1000, 40],
    ]);
    expect(a.exposure).toMatchObject({ grossUsd: 2500, netUsd: 500 });
  });

  it('a fully hedged book has no concentration by asset (zero weights, no effective count)', () => {
    const c = run('Asset,Value,Venue,Class\nBTC,5000000,X,crypto\nBTC,-5000000,Y,crypto').concentration;
    expect(c).toMatchObject({ assetCount: 1, largestWeightPct: 0, herfindahlIndex: 0, effectivePositions: null });
  });

  it('breakdowns by class (lower-cased) and by venue, largest first', () => {
    const a = run(BOOK);
    expect(a.byClass.map((g) => [g.key, g.longUsd, g.shortUsd, g.netUsd, g.shareOfGrossPct])).toEqual([
      ['crypto', 1_750_000, 0, 1_750_000, 60.3448],
      ['equity', 0, 500_000, -500_000, 17.2414],
      ['stablecoin', 400_000, 0, 400_000, 13.7931],
      ['cash', 150_000.5, 0, 150_000.5, 5.1724],
      ['unclassified', 100_000, 0, 100_000, 3.4483],
    ]);
    expect(a.byVenue.map((g) => [g.key, g.grossUsd, g.shareOfGrossPct])).toEqual([
      ['Coinbase', 1_400_000, 48.2759],
      ['Kraken', 750_000, 25.8621],
      ['IBKR', 600_000, 20.6897],
      ['Bank', 150_000.5, 5.1724],
    ]);
  });

  it('one class row for stablecoin and stablecoins; venues merge across letter case under the first spelling', () => {
    const a = run(
      'Asset,Value,Venue,Class\nUSDC,100,Coinbase,stablecoin\nUSDT,50,coinbase,Stablecoins\nBTC,200,COINBASE,crypto',
    );
    expect(a.byClass.map((g) => [g.key, g.netUsd])).toEqual([
      ['crypto', 200],
      ['stablecoin', 150],
    ]);
    expect(a.exposure.cashUsd).toBe(150);
    expect(a.byVenue.map((g) => [g.key, g.grossUsd, g.shareOfGrossPct])).toEqual([['Coinbase', 350, 100]]);
  });

  it('an Excel export with an empty trailing column and spreadsheet number formats reads as typed', () => {
    const excel = run(
      'Asset,Value,Venue,Class,\r\nBTC,$-1,X,crypto,\r\nETH,\u2212100,X,crypto,\r\nSOL,"1\u00a0000",X,crypto,\r\n',
    );
    expect(excel.exposure).toMatchObject({ longUsd: 1000, shortUsd: 101 });
  });

  it('quoted cells with spaces (as the web table writes them) are the same asset, venue and class', () => {
    const spaced = run(
      'Asset,Value,Venue,Class\n"BTC"," 4000000"," Kraken"," crypto"\n" USD"," 1000000"," Bank"," cash"',
    );
    const plain = run('Asset,Value,Venue,Class\nBTC,4000000,Kraken,crypto\nUSD,1000000,Bank,cash');
    expect(spaced.exposure).toEqual(plain.exposure);
    expect(spaced.exposure.cashUsd).toBe(1_000_000);
    expect(spaced.byClass.map((g) => g.key)).toEqual(plain.byClass.map((g) => g.key));
    expect(spaced.byVenue.map((g) => g.key)).toEqual(['Kraken', 'Bank']);
  });

  it('a bad row is a 400 naming its line (counted after the blank line)', () => {
    expect.assertions(3);
    try {
      run(`${BOOK}\r\nDOGE,lots,Binance,crypto\r\n`);
    } catch (err) {
      expect(err).toBeInstanceOf(ProblemError);
      expect((err as ProblemError).code).toBe('invalid_parameter');
      expect((err as ProblemError).errors).toEqual([
        { field: 'positionsCsv', message: 'line 11: Value "lots" is not a number' },
      ]);
    }
  });

  it('a book that sums to zero or less answers null ratios rather than dividing by it', () => {
    const a = run('Asset,Value,Venue,Class\nBTC,100,X,crypto\nETH,-100,X,crypto');
    expect(a.exposure).toMatchObject({ grossUsd: 200, netUsd: 0, grossPct: null, netPct: null });
  });

  it('header only: zeros, no concentration', () => {
    const a = run('Asset,Value,Venue,Class\r\n');
    expect(a.positionsCount).toBe(0);
    expect(a.concentration).toEqual({
      assetCount: 0,
      top5: [],
      top5WeightPct: 0,
      largestWeightPct: 0,
      herfindahlIndex: 0,
      effectivePositions: null,
    });
  });

  it('sums stay exact to the cent over many rows with sub-cent values', () => {
    // 3 000 × 0.333 = 999 exactly; floating point would drift
    const rows = ['Asset,Value,Venue,Class', ...Array.from({ length: 3000 }, (_, i) => `A${i},0.333,V,crypto`)];
    expect(run(rows.join('\n')).exposure.longUsd).toBe(999);
  });

  it('the default sample book, deterministically', () => {
    const first = JSON.stringify(exposureAnalysis(EXPOSURE_ANALYSIS_DEFAULTS));
    const a = JSON.parse(first);
    expect(a.assumptions.positionsCsv).toMatchObject({ isDefault: true, rows: 8 });
    expect(a.exposure).toMatchObject({ longUsd: 9_200_000, shortUsd: 600_000, cashUsd: 1_900_000 });
    expect(JSON.stringify(exposureAnalysis(EXPOSURE_ANALYSIS_DEFAULTS))).toBe(first);
    expect(a.disclaimer).toMatch(/not accounting or tax advice/);
  });
});
