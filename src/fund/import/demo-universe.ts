/** The synthetic demo fund's static universe: instruments, connections, share classes. */
export const DEMO_END_DATE = '2026-10-31';
export const DEMO_INCEPTION_DATE = '2023-10-31';
export const DEMO_DEFAULT_TRADES = 15_000;
export const DEMO_SEED = 20261031;

export interface DemoInstrument {
  symbol: string;
  name: string;
  assetClass: 'crypto' | 'equity' | 'commodity' | 'stablecoin' | 'cash';
  start: number;
  vol: number;
  drift: number;
  loading: number;
  group: 'crypto' | 'equity' | 'stable' | 'cash';
  weight: number;
  venues: string[];
  decimals: number;
}

export const DEMO_INSTRUMENTS: DemoInstrument[] = [
  {
    symbol: 'BTC',
    name: 'Bitcoin',
    assetClass: 'crypto',
    start: 34500,
    vol: 0.03,
    drift: 0.0011,
    loading: 0.9,
    group: 'crypto',
    weight: 0.24,
    venues: ['coinbase-prime', 'kraken'],
    decimals: 6,
  },
  {
    symbol: 'ETH',
    name: 'Ether',
    assetClass: 'crypto',
    start: 1800,
    vol: 0.035,
    drift: 0.0008,
    loading: 0.85,
    group: 'crypto',
    weight: 0.14,
    venues: ['coinbase-prime', 'kraken'],
    decimals: 5,
  },
  {
    symbol: 'SOL',
    name: 'Solana',
    assetClass: 'crypto',
    start: 38,
    vol: 0.05,
    drift: 0.0012,
    loading: 0.75,
    group: 'crypto',
    weight: 0.06,
    venues: ['kraken'],
    decimals: 4,
  },
  {
    symbol: 'AVAX',
    name: 'Avalanche',
    assetClass: 'crypto',
    start: 11,
    vol: 0.05,
    drift: 0.0005,
    loading: 0.7,
    group: 'crypto',
    weight: 0.02,
    venues: ['kraken'],
    decimals: 3,
  },
  {
    symbol: 'LINK',
    name: 'Chainlink',
    assetClass: 'crypto',
    start: 11,
    vol: 0.045,
    drift: 0.0006,
    loading: 0.7,
    group: 'crypto',
    weight: 0.02,
    venues: ['coinbase-prime'],
    decimals: 3,
  },
  {
    symbol: 'UNI',
    name: 'Uniswap',
    assetClass: 'crypto',
    start: 4.5,
    vol: 0.05,
    drift: 0.0004,
    loading: 0.65,
    group: 'crypto',
    weight: 0.015,
    venues: ['coinbase-prime'],
    decimals: 3,
  },
  {
    symbol: 'AAVE',
    name: 'Aave',
    assetClass: 'crypto',
    start: 95,
    vol: 0.05,
    drift: 0.0007,
    loading: 0.65,
    group: 'crypto',
    weight: 0.015,
    venues: ['kraken'],
    decimals: 4,
  },
  {
    symbol: 'USDC',
    name: 'USD Coin',
    assetClass: 'stablecoin',
    start: 1,
    vol: 0.0002,
    drift: 0,
    loading: 0,
    group: 'stable',
    weight: 0.05,
    venues: ['coinbase-prime'],
    decimals: 2,
  },
  {
    symbol: 'USDT',
    name: 'Tether',
    assetClass: 'stablecoin',
    start: 1,
    vol: 0.0003,
    drift: 0,
    loading: 0,
    group: 'stable',
    weight: 0.03,
    venues: ['kraken'],
    decimals: 2,
  },
  {
    symbol: 'SPY',
    name: 'SPDR S&P 500 ETF',
    assetClass: 'equity',
    start: 418,
    vol: 0.009,
    drift: 0.0004,
    loading: 0.95,
    group: 'equity',
    weight: 0.1,
    venues: ['ibkr'],
    decimals: 0,
  },
  {
    symbol: 'QQQ',
    name: 'Invesco QQQ Trust',
    assetClass: 'equity',
    start: 355,
    vol: 0.011,
    drift: 0.0005,
    loading: 0.9,
    group: 'equity',
    weight: -0.05,
    venues: ['gs-prime'],
    decimals: 0,
  },
  {
    symbol: 'IWM',
    name: 'iShares Russell 2000 ETF',
    assetClass: 'equity',
    start: 168,
    vol: 0.012,
    drift: 0.0002,
    loading: 0.85,
    group: 'equity',
    weight: 0.03,
    venues: ['gs-prime'],
    decimals: 0,
  },
  {
    symbol: 'TLT',
    name: 'iShares 20+ Year Treasury ETF',
    assetClass: 'equity',
    start: 84,
    vol: 0.008,
    drift: 0.0001,
    loading: -0.3,
    group: 'equity',
    weight: 0.04,
    venues: ['ibkr'],
    decimals: 0,
  },
  {
    symbol: 'GLD',
    name: 'SPDR Gold Shares',
    assetClass: 'commodity',
    start: 183,
    vol: 0.008,
    drift: 0.0003,
    loading: 0.2,
    group: 'equity',
    weight: 0.05,
    venues: ['ibkr'],
    decimals: 0,
  },
  {
    symbol: 'USD',
    name: 'US dollar',
    assetClass: 'cash',
    start: 1,
    vol: 0,
    drift: 0,
    loading: 0,
    group: 'cash',
    weight: 0,
    venues: [],
    decimals: 2,
  },
];

export interface DemoConnection {
  code: string;
  name: string;
  venue: string;
  sourceType: 'exchange' | 'custody' | 'bank' | 'broker';
  mode: 'live' | 'paper';
}

export const DEMO_CONNECTIONS: DemoConnection[] = [
  { code: 'jpm-operating', name: 'Operating account', venue: 'JPMorgan Chase', sourceType: 'bank', mode: 'live' },
  {
    code: 'coinbase-prime',
    name: 'Coinbase Prime trading',
    venue: 'Coinbase Prime',
    sourceType: 'exchange',
    mode: 'live',
  },
  { code: 'kraken', name: 'Kraken institutional', venue: 'Kraken', sourceType: 'exchange', mode: 'live' },
  {
    code: 'anchorage',
    name: 'Anchorage cold custody',
    venue: 'Anchorage Digital',
    sourceType: 'custody',
    mode: 'live',
  },
  { code: 'fireblocks', name: 'Fireblocks vault', venue: 'Fireblocks', sourceType: 'custody', mode: 'live' },
  { code: 'ibkr', name: 'IBKR prime account', venue: 'Interactive Brokers', sourceType: 'broker', mode: 'live' },
  { code: 'gs-prime', name: 'GS prime brokerage', venue: 'Goldman Sachs', sourceType: 'broker', mode: 'live' },
  { code: 'binance-paper', name: 'Binance paper trading', venue: 'Binance', sourceType: 'exchange', mode: 'paper' },
];

export const DEMO_CASH_CONNECTION = 'jpm-operating';

export const DEMO_SHARE_CLASSES = [
  {
    name: 'Class A',
    currency: 'USD',
    mgmtFeeAnnualRate: '0.02',
    perfFeeRate: '0.2',
    hurdleAnnualRate: '0.05',
    crystallizationFrequency: 'quarterly',
    feeExempt: false,
    status: 'open',
    initialNavPerUnit: '1000',
  },
  {
    name: 'Class B',
    currency: 'USD',
    mgmtFeeAnnualRate: '0.015',
    perfFeeRate: '0.15',
    hurdleAnnualRate: null,
    crystallizationFrequency: 'annual',
    feeExempt: false,
    status: 'open',
    initialNavPerUnit: '1000',
  },
  {
    name: 'Class M',
    currency: 'USD',
    mgmtFeeAnnualRate: '0',
    perfFeeRate: '0',
    hurdleAnnualRate: null,
    crystallizationFrequency: 'annual',
    feeExempt: true,
    status: 'closed',
    initialNavPerUnit: '1000',
  },
] as const;

export const FIRST_NAMES = [
  'Avery',
  'Jordan',
  'Morgan',
  'Riley',
  'Casey',
  'Quinn',
  'Harper',
  'Rowan',
  'Emerson',
  'Sasha',
  'Elliot',
  'Noa',
  'Kai',
  'Remy',
  'Tatum',
  'Jules',
];
export const LAST_NAMES = [
  'Example',
  'Sample',
  'Placeholder',
  'Fictive',
  'Testwood',
  'Demoford',
  'Mockridge',
  'Synthby',
  'Fakely',
  'Notreal',
];
export const ENTITY_WORDS = [
  'Aldergrove',
  'Bluefen',
  'Cobalt Ridge',
  'Driftwood',
  'Eastmere',
  'Foxglove',
  'Greystone',
  'Harrow',
  'Ironbark',
  'Juniper',
];
export const ENTITY_KINDS = [
  { type: 'family_office', suffix: 'Family Office' },
  { type: 'institution', suffix: 'Pension Trust' },
  { type: 'fund_of_funds', suffix: 'Multi-Strategy FoF' },
  { type: 'institution', suffix: 'Endowment' },
];
