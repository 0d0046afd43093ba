import { D, type Dec, ZERO, roundToTotal, sum } from '../common/decimals';

/**
 * Parametric (variance–covariance) value at risk, exactly as fund-domain.md states it, in
 * decimal arithmetic (40 significant digits) so that results are reproducible to the cent.
 */
export const Z_SCORES: Record<'0.95' | '0.99', Dec> = {
  '0.95': new D('1.6448536270'),
  '0.99': new D('2.3263478740'),
};
export const EWMA_LAMBDA = new D('0.94');

/** returns[t][i]: simple return of asset i on day t, oldest day first. */
export type ReturnMatrix = Dec[][];

/** Daily simple returns from closes (closes[t][i], oldest first): r_t = P_t / P_{t-1} − 1. */
export function simpleReturns(closes: Dec[][]): ReturnMatrix {
  const out: ReturnMatrix = [];
  for (let t = 1; t < closes.length; t++) out.push(closes[t].map((p, i) => p.dividedBy(closes[t - 1][i]).minus(1)));
  return out;
}

/** Sample covariance: mean removed, divisor N − 1. */
export function sampleCovariance(returns: ReturnMatrix): Dec[][] {
  const n = returns.length;
  const k = returns[0]?.length ?? 0;
  if (n < 2) throw new Error('sample covariance needs at least two returns');
  const means = Array.from({ length: k }, (_, i) => sum(returns.map((r) => r[i])).dividedBy(n));
  const centered = returns.map((r) => r.map((v, i) => v.minus(means[i])));
  return covarianceFrom(centered, () => new D(1).dividedBy(n - 1));
}

/** RiskMetrics EWMA, zero mean: weights (1−λ)λ^k / (1−λ^N), k = 0 the most recent day. */
export function ewmaCovariance(returns: ReturnMatrix, lambda: Dec = EWMA_LAMBDA): Dec[][] {
  const n = returns.length;
  if (n < 1) throw new Error('EWMA covariance needs at least one return');
  const norm = new D(1).minus(lambda.pow(n));
  const oneMinus = new D(1).minus(lambda);
  // returns are oldest first, so day t has k = n − 1 − t.
  const weights = returns.map((_, t) => oneMinus.times(lambda.pow(n - 1 - t)).dividedBy(norm));
  return covarianceFrom(returns, (t) => weights[t]);
}

function covarianceFrom(rows: ReturnMatrix, weightOf: (t: number) => Dec): Dec[][] {
  const k = rows[0]?.length ?? 0;
  const cov: Dec[][] = Array.from({ length: k }, () => Array.from({ length: k }, () => ZERO));
  for (let i = 0; i < k; i++) {
    for (let j = i; j < k; j++) {
      let acc = ZERO;
      for (let t = 0; t < rows.length; t++) acc = acc.plus(rows[t][i].times(rows[t][j]).times(weightOf(t)));
      cov[i][j] = acc;
      cov[j][i] = acc;
    }
  }
  return cov;
}

export interface VarResult {
  /** σ_p = sqrt(xᵀΣx), one day, base currency (unrounded). */
  sigma: Dec;
  /** z × σ_p × sqrt(h), rounded to cents. */
  valueAtRisk: Dec;
  /** Euler components x_i (Σx)_i / σ_p × z × sqrt(h), rounded to cents so they sum to valueAtRisk exactly. */
  components: Dec[];
  /** The unrounded components (for tests and ratios). */
  exactComponents: Dec[];
}

export function parametricVar(positions: Dec[], covariance: Dec[][], z: Dec, horizonDays: number): VarResult {
  const k = positions.length;
  const sigmaX = Array.from({ length: k }, (_, i) => sum(positions.map((x, j) => covariance[i][j].times(x))));
  const variance = sum(positions.map((x, i) => x.times(sigmaX[i])));
  const sigma = variance.isPositive() ? variance.sqrt() : ZERO;
  const scale = z.times(new D(horizonDays).sqrt());
  const exactVar = sigma.times(scale);
  const valueAtRisk = exactVar.toDecimalPlaces(2, D.ROUND_HALF_UP);
  const exactComponents = positions.map((x, i) =>
    sigma.isZero() ? ZERO : x.times(sigmaX[i]).dividedBy(sigma).times(scale),
  );
  return { sigma, valueAtRisk, components: roundToTotal(exactComponents, valueAtRisk), exactComponents };
}

/** Covariance matrix from daily volatilities and a correlation matrix (the reference example). */
export function covarianceFromVolatilities(vols: Dec[], correlation: Dec[][]): Dec[][] {
  return vols.map((vi, i) => vols.map((vj, j) => vi.times(vj).times(correlation[i][j])));
}
