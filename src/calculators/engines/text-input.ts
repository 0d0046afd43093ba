import { utf8Bytes } from './csv';

/** How the data reached the calculator (echoed; it does not change the math). */
export type InputMethod = 'upload' | 'manual';
export const INPUT_METHODS: readonly InputMethod[] = ['upload', 'manual'];

/** A long text input is echoed by its size, not by sending its bytes back. */
export interface TextDigest {
  /** True when the calculator's documented default text was used. */
  isDefault: boolean;
  bytes: number;
  /** CSV inputs: data rows read (header excluded). */
  rows?: number;
  /** Free text inputs: characters. */
  characters?: number;
}

export function csvDigest(text: string, defaultText: string, rows: number): TextDigest {
  return { isDefault: text === defaultText, bytes: utf8Bytes(text), rows };
}

export function textDigest(text: string, defaultText: string): TextDigest {
  return { isDefault: text === defaultText, bytes: utf8Bytes(text), characters: text.length };
}
