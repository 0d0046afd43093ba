import { apiRequest } from '../shared/api';
import { CSV_MAX_BYTES, REPORT_TEXT_MAX_CHARS } from '../../src/calculators/dto/limits';
import type { ToolName } from './catalog';

/**
 * The form of a tool is read from the service's OpenAPI document: the same DTO decorators that
 * validate a calculator body write its fields' types, bounds, defaults and help, so the page
 * cannot drift from the engine's documented defaults.
 */
export type FieldKind = 'number' | 'integer' | 'boolean' | 'enum' | 'date' | 'csv' | 'text' | 'inputMethod';

export interface FieldSpec {
  name: string;
  kind: FieldKind;
  label: string;
  unit: string | null;
  help: string;
  default: unknown;
  example: unknown;
  nullable: boolean;
  options: string[];
  min: number | null;
  /** The minimum itself is not allowed (0 < x). */
  exclusiveMin: boolean;
  max: number | null;
  /** Upload size limit for csv (bytes) and text (characters) fields. */
  limit: { bytes?: number; characters?: number } | null;
}

interface PropertySchema {
  /** OpenAPI 3.1 writes a nullable type as ['number', 'null']. */
  type?: string | string[];
  format?: string;
  enum?: string[];
  description?: string;
  default?: unknown;
  example?: unknown;
  nullable?: boolean;
  minimum?: number;
  /** 3.0: a flag on minimum; 3.1: the bound itself. */
  exclusiveMinimum?: boolean | number;
  maximum?: number;
}

/** The document is OpenAPI 3.1 (type unions, numeric exclusiveMinimum, examples); fields read the simple form. */
interface PropertySchema31 extends Omit<PropertySchema, 'type' | 'exclusiveMinimum' | 'enum'> {
  type?: string | string[];
  exclusiveMinimum?: number | boolean;
  enum?: Array<string | null>;
  examples?: unknown[];
}

function simpleForm(p: PropertySchema31): PropertySchema {
  const types = Array.isArray(p.type) ? p.type : p.type ? [p.type] : [];
  const exclusive = typeof p.exclusiveMinimum === 'number';
  return {
    ...p,
    type: types.find((t) => t !== 'null'),
    enum: p.enum?.filter((v): v is string => v !== null),
    example: p.example ?? p.examples?.[0],
    nullable: p.nullable === true || types.includes('null'),
    minimum: exclusive ? (p.exclusiveMinimum as number) : p.minimum,
    exclusiveMinimum: exclusive || p.exclusiveMinimum === true,
  };
}

interface OpenApiDocument {
  /** This deployment's rate limits per policy and plan (the service's RATE_LIMITS). */
  'x-rate-limits'?: Record<string, Partial<Record<CalcPlan, number>>>;
  paths: Record<string, { post?: { requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } } }>;
  components: { schemas: Record<string, { properties?: Record<string, PropertySchema31> }> };
}

const WORDS: Record<string, string> = {
  nav: 'NAV',
  lp: 'LP',
  mgmt: 'management',
  perf: 'performance',
  hwm: 'high-water mark',
  aum: 'AUM',
  pnl: 'P&L',
  csv: '',
  usd: '',
  pct: '',
  recon: 'reconciliation',
};
const LABELS: Record<string, string> = {
  hasHwm: 'High-water mark',
  hasFundAdmin: 'Independent fund administrator',
  hasAnnualAudit: 'Annual audit',
  navUsd: 'NAV for the ratios',
  lpRowsCsv: 'Investor rows (optional)',
  positionsCsv: 'Positions',
  reportText: 'LP letter or report text',
  aumUsd: 'Assets under management',
  lpReportsPerYear: 'LP reports a year',
  costPerReportUsd: 'Cost per LP report',
  backOfficeHeadcount: 'Back-office headcount (full-time equivalents)',
};

/** `startingNavUsd` → "Starting NAV" (the unit is shown apart). */
export function labelOf(name: string): string {
  if (LABELS[name]) return LABELS[name];
  name = name.replace(/Years$/, '');
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(' ')
    .map((w) => {
      const mapped = WORDS[w.toLowerCase()];
      return mapped ?? w.toLowerCase();
    })
    .filter(Boolean);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function unitOf(name: string): string | null {
  if (/Usd$/.test(name)) return 'USD';
  if (/Pct$/.test(name)) return '%';
  if (/Years$/.test(name)) return 'years';
  return null;
}

const TEXT_FIELDS = new Set(['reportText']);

function kindOf(name: string, p: PropertySchema): FieldKind {
  if (name === 'inputMethod') return 'inputMethod';
  if (p.enum) return 'enum';
  if (p.type === 'boolean') return 'boolean';
  if (p.type === 'integer') return 'integer';
  if (p.type === 'number') return 'number';
  if (p.format === 'date') return 'date';
  if (TEXT_FIELDS.has(name)) return 'text';
  return /Csv$/.test(name) ? 'csv' : 'text';
}

function toField(name: string, p31: PropertySchema31): FieldSpec {
  const p = simpleForm(p31);
  const kind = kindOf(name, p);
  return {
    name,
    kind,
    label: labelOf(name),
    unit: unitOf(name),
    help: p.description ?? '',
    default: p.default ?? null,
    example: p.example ?? p.default ?? null,
    nullable: p.nullable === true,
    options: p.enum ?? [],
    min: p.minimum ?? null,
    exclusiveMin: p.exclusiveMinimum === true,
    max: p.maximum ?? null,
    limit: kind === 'csv' ? { bytes: CSV_MAX_BYTES } : kind === 'text' ? { characters: REPORT_TEXT_MAX_CHARS } : null,
  };
}

let documentPromise: Promise<OpenApiDocument> | null = null;

function loadDocument(): Promise<OpenApiDocument> {
  documentPromise ??= apiRequest<OpenApiDocument>('/api/openapi.json').then((r) => r.body);
  documentPromise.catch(() => {
    documentPromise = null; // a failed load is retried on the next page
  });
  return documentPromise;
}

export type CalcPlan = 'free' | 'developer' | 'platform';

/** The daily calculator caps per plan this deployment publishes in its API document, or null when it does not say. */
export async function loadCalcCaps(): Promise<Record<CalcPlan, number> | null> {
  const caps = (await loadDocument())?.['x-rate-limits']?.['calc-daily'];
  const whole = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  return caps && whole(caps.free) && whole(caps.developer) && whole(caps.platform)
    ? { free: caps.free, developer: caps.developer, platform: caps.platform }
    : null;
}

/** The body fields of a calculator, in the DTO's order. */
export async function loadFields(name: ToolName): Promise<FieldSpec[]> {
  const doc = await loadDocument();
  // e.g. a proxy that answers the document's URL with a web page: a sentence, not a TypeError
  if (!doc || typeof doc !== 'object' || !doc.paths || !doc.components)
    throw new Error('the service sent something other than its API description: try again in a moment');
  const ref = doc.paths[`/api/v1/calc/${name}`]?.post?.requestBody?.content?.['application/json']?.schema?.$ref;
  const schema = ref ? doc.components.schemas[ref.split('/').pop()!] : undefined;
  if (!schema?.properties) throw new Error(`the API document has no body schema for ${name}`);
  return Object.entries(schema.properties).map(([n, p]) => toField(n, p));
}
