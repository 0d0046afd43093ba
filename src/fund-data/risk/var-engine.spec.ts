import { D } from '../common/decimals';
import {
  Z_SCORES,
  covarianceFromVolatilities,
  ewmaCovariance,
  parametricVar,
  sampleCovariance,
  simpleReturns,
} from './var-engine';

const d = (v: string | number) => new D(String(v));

describe('parametric VaR engine', () => {
  it('reproduces the fund-domain reference vector (BTC 4m, ETH 2m, SPY 4m)', () => {
    const x = [d(4_000_000), d(2_000_000), d(4_000_000)];
    const vols = [d('0.035'), d('0.045'), d('0.012')];
    const corr = [
      [d(1), d('0.80'), d('0.35')],
      [d('0.80'), d(1), d('0.30')],
      [d('0.35'), d('0.30'), d(1)],
    ];
    const r = parametricVar(x, covarianceFromVolatilities(vols, corr), Z_SCORES['0.99'], 1);
    expect(r.sigma.toFixed(2)).toBe('239708.16');
    expect(r.valueAtRisk.toFixed(2)).toBe('557644.56');
    expect(r.components.map((c) => c.toFixed(2))).toEqual(['310867.92', '189012.97', '57763.67']);
    expect(r.components.reduce((a, c) => a.plus(c), d(0)).toFixed(2)).toBe('557644.56');
  });

  it('scales with sqrt(horizon) and keeps the Euler sum exact at 10 days and 95 %', () => {
    const x = [d(4_000_000), d(-2_000_000), d(4_000_000)];
    const cov = covarianceFromVolatilities(
      [d('0.035'), d('0.045'), d('0.012')],
      [
        [d(1), d('0.8'), d('0.35')],
        [d('0.8'), d(1), d('0.3')],
        [d('0.35'), d('0.3'), d(1)],
      ],
    );
    const one = parametricVar(x, cov, Z_SCORES['0.95'], 1);
    const ten = parametricVar(x, cov, Z_SCORES['0.95'], 10);
    expect(ten.sigma.equals(one.sigma)).toBe(true);
    expect(
      ten.valueAtRisk
        .minus(one.sigma.times(Z_SCORES['0.95']).times(d(10).sqrt()))
        .abs()
        .lte('0.005'),
    ).toBe(true);
    expect(ten.components.reduce((a, c) => a.plus(c), d(0)).equals(ten.valueAtRisk)).toBe(true);
  });

  it('sample covariance removes the mean and divides by N − 1', () => {
    const r = [
      [d('0.01'), d('0.02')],
      [d('-0.01'), d('0')],
      [d('0.03'), d('0.01')],
    ];
    const cov = sampleCovariance(r);
    // means 0.01 and 0.01; deviations (0,0.01), (-0.02,-0.01), (0.02,0)
    expect(cov[0][0].toString()).toBe('0.0004'); // (0 + 0.0004 + 0.0004) / 2
    expect(cov[1][1].toString()).toBe('0.0001'); // (0.0001 + 0.0001 + 0) / 2
    expect(cov[0][1].toString()).toBe('0.0001'); // (0 + 0.0002 + 0) / 2
  });

  it('EWMA is zero-mean with weights (1−λ)λ^k/(1−λ^N), k = 0 the most recent day', () => {
    const r = [[d('0.02')], [d('-0.01')]]; // oldest first
    const cov = ewmaCovariance(r, d('0.94'));
    const norm = d(1).minus(d('0.94').pow(2));
    const expected = d('0.06')
      .times(d('0.0001'))
      .plus(d('0.06').times(d('0.94')).times(d('0.0004')))
      .dividedBy(norm);
    expect(cov[0][0].equals(expected)).toBe(true);
    // weights sum to one: a constant return gives its square back
    const flat = ewmaCovariance(Array.from({ length: 250 }, () => [d('0.01')]));
    expect(flat[0][0].toDecimalPlaces(20).toString()).toBe('0.0001');
  });

  it('computes simple returns from closes', () => {
    expect(simpleReturns([[d(100)], [d(110)], [d(99)]]).map((r) => r[0].toString())).toEqual(['0.1', '-0.1']);
  });
});
