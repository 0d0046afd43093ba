/** Largest money amount a calculator accepts (a quadrillion USD): beyond it a value is a typo. */
export const MAX_USD = 1e15;
/**
 * Smallest amount a calculator divides by (a cent): below it a ratio overflows to no answer
 * (aumUsd=1e-300 gave costBpOfAum null).
 */
export const MIN_DIVISOR_USD = 0.01;

/**
 * Size limits of the long text fields (413 beyond), here so the web tools can refuse an oversize
 * file before uploading it (this file has no imports: the browser bundle can take it as is).
 */
/** Byte limit of one CSV field (UTF-8). */
export const CSV_MAX_BYTES = 512 * 1024;
/** Character limit of the LP report grader's reportText. */
export const REPORT_TEXT_MAX_CHARS = 200_000;
