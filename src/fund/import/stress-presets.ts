/**
 * The historical stress presets shipped with the service; copied into each fund's reference
 * data when the fund is created. Equity figures are S&P 500 index closes; crypto figures are
 * approximate daily closes. Fallbacks apply to assets a preset does not name.
 */
export interface StressPresetSeed {
  id: string;
  name: string;
  description: string;
  windowStart: string;
  windowEnd: string;
  source: string;
  returns: Record<string, string>;
  fallbacks: Record<'crypto' | 'equity' | 'commodity' | 'stablecoin' | 'cash', string>;
}

export const STRESS_PRESETS: StressPresetSeed[] = [
  {
    id: 'gfc-2008',
    name: 'Global financial crisis',
    description: 'S&P 500 peak-to-trough, October 2007 to March 2009.',
    windowStart: '2007-10-09',
    windowEnd: '2009-03-09',
    source:
      'S&P Dow Jones Indices: S&P 500 close 1,565.15 (2007-10-09) to 676.53 (2009-03-09). Crypto did not trade; the crypto fallback is an assumption.',
    returns: { SPX: '-0.5678', SPY: '-0.5678', QQQ: '-0.5400', IWM: '-0.5900' },
    fallbacks: { crypto: '-0.6000', equity: '-0.5678', commodity: '-0.2000', stablecoin: '0', cash: '0' },
  },
  {
    id: 'lehman-2008',
    name: 'Lehman collapse',
    description: 'From the weekend before Lehman Brothers filed to the November 2008 low.',
    windowStart: '2008-09-12',
    windowEnd: '2008-11-20',
    source: 'S&P Dow Jones Indices: S&P 500 close 1,251.70 (2008-09-12) to 752.44 (2008-11-20).',
    returns: { SPX: '-0.3989', SPY: '-0.3989' },
    fallbacks: { crypto: '-0.4500', equity: '-0.3989', commodity: '-0.1500', stablecoin: '0', cash: '0' },
  },
  {
    id: 'covid-2020',
    name: 'COVID-19 crash',
    description: 'Pre-pandemic peak to the March 2020 low; crypto fell about half with intraday lows on 12–13 March.',
    windowStart: '2020-02-19',
    windowEnd: '2020-03-23',
    source:
      'S&P Dow Jones Indices: S&P 500 close 3,386.15 (2020-02-19) to 2,237.40 (2020-03-23); BTC and ETH approximate from public daily closes (CoinMarketCap).',
    returns: { SPX: '-0.3392', SPY: '-0.3392', BTC: '-0.5000', ETH: '-0.5000' },
    fallbacks: { crypto: '-0.5000', equity: '-0.3392', commodity: '-0.1200', stablecoin: '0', cash: '0' },
  },
  {
    id: 'luna-2022',
    name: 'Terra/LUNA collapse',
    description: 'UST depeg and LUNA collapse, May 2022.',
    windowStart: '2022-05-07',
    windowEnd: '2022-05-13',
    source: 'Approximate BTC and ETH daily closes (CoinMarketCap), 2022-05-07 to 2022-05-13.',
    returns: { BTC: '-0.1500', ETH: '-0.2200' },
    fallbacks: { crypto: '-0.2500', equity: '-0.0500', commodity: '0', stablecoin: '-0.0100', cash: '0' },
  },
  {
    id: 'ftx-2022',
    name: 'FTX collapse',
    description: 'FTX insolvency and contagion, November 2022.',
    windowStart: '2022-11-06',
    windowEnd: '2022-11-21',
    source: 'Approximate BTC and ETH daily closes (CoinMarketCap), 2022-11-06 to 2022-11-21.',
    returns: { BTC: '-0.2260', ETH: '-0.2690' },
    fallbacks: { crypto: '-0.3000', equity: '0', commodity: '0', stablecoin: '0', cash: '0' },
  },
];
