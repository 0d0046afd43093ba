/** Largest money amount a calculator accepts (a quadrillion USD): beyond it a value is a typo. */
export const MAX_USD = 1e15;
