import { ApiProperty } from '@nestjs/swagger';
import { isCalendarDate } from '../../common/validation/calendar-date';
import { NAV_VALIDATOR_DEFAULTS as D } from '../engines/nav-validator.engine';
import { INPUT_METHODS, InputMethod } from '../engines/text-input';
import { CSV_MAX_BYTES } from '../engines/csv';
import { BooleanField, CrossFieldRule, DateField, EnumField, NumberField, TextField } from './field.decorators';
import { MAX_USD } from './limits';
import { TextDigestDto } from './text-digest.dto';

const usd = (description: string, def: number, signed = false) =>
  NumberField({ description: `${description} USD.`, default: def, min: signed ? -MAX_USD : 0, max: MAX_USD });

export class NavValidatorRequest {
  @DateField({ description: 'First day of the period (inclusive).', default: D.periodStart })
  periodStart?: string;

  @DateField({ description: 'Last day of the period (inclusive); not before periodStart.', default: D.periodEnd })
  @CrossFieldRule('notBeforeStart', (value, body) => {
    const start = body.periodStart === undefined ? D.periodStart : body.periodStart;
    if (!isCalendarDate(value) || !isCalendarDate(start)) return null;
    return value < start ? `must not be before periodStart (${start})` : null;
  })
  periodEnd?: string;

  @usd('NAV at the start of the period,', D.openingNavUsd)
  openingNavUsd?: number;

  @usd('Subscriptions received in the period,', D.contributionsUsd)
  contributionsUsd?: number;

  @usd('Redemptions paid in the period,', D.withdrawalsUsd)
  withdrawalsUsd?: number;

  @usd('Gross P&L before fees and expenses (negative for a loss),', D.grossPnlUsd, true)
  grossPnlUsd?: number;

  @usd('Management fee booked for the period,', D.mgmtFeeUsd)
  mgmtFeeUsd?: number;

  @usd('Performance fee booked for the period,', D.perfFeeUsd)
  perfFeeUsd?: number;

  @usd('Other expenses booked for the period,', D.otherExpensesUsd)
  otherExpensesUsd?: number;

  @usd('Closing NAV as reported (by the administrator or the books),', D.reportedClosingNavUsd)
  reportedClosingNavUsd?: number;

  @NumberField({
    description:
      'Agreed management fee a year, percent; the booked fee is tested ACT/365 on any base from the opening NAV to the rolled-forward closing NAV (flows counted half), so fees charged on opening, average or closing NAV all pass.',
    default: D.mgmtFeePct,
    min: 0,
    max: 100,
  })
  mgmtFeePct?: number;

  @NumberField({
    description: 'Agreed performance fee, percent of net gains.',
    default: D.perfFeePct,
    min: 0,
    max: 100,
  })
  perfFeePct?: number;

  @NumberField({
    description:
      'Hard hurdle a year, percent, as in the fee calculator: the performance fee is tested on the net gain above the opening NAV (plus half the net flows) grown by the hurdle over the period, ACT/365; a fee on the whole gain is then a warning (a soft hurdle). Absent or null: no hurdle.',
    default: D.hurdlePct,
    example: 8,
    min: 0,
    max: 100,
    nullable: true,
  })
  hurdlePct?: number | null;

  @BooleanField({
    description: 'The performance fee has a high-water mark (a lower implied rate is then a warning, not a failure).',
    default: D.hasHwm,
  })
  hasHwm?: boolean;

  @TextField({
    description: `Optional investor rows, CSV with header Investor,Opening,Contributions,Withdrawals,Closing (USD); their sums are checked against the fund figures. At most ${CSV_MAX_BYTES} bytes (a larger one is refused with 413). Empty = no investor check.`,
    default: D.lpRowsCsv,
    example:
      'Investor,Opening,Contributions,Withdrawals,Closing\nLP A,6000000,500000,0,6561032.88\nLP B,4000000,0,250000,3949021.91',
  })
  lpRowsCsv?: string;

  @EnumField({
    description: 'How the figures were entered (echoed; no effect on the checks).',
    values: INPUT_METHODS,
    default: D.inputMethod,
  })
  inputMethod?: InputMethod;
}

class FeeBasisRange {
  @ApiProperty({ description: 'Opening NAV plus half the net flows (a fee charged on the opening NAV).' })
  openingUsd: number;
  @ApiProperty({
    description: 'Rolled-forward closing NAV minus half the net flows (a fee charged on the closing NAV).',
  })
  closingUsd: number;
}

class NavAssumptions {
  @ApiProperty() periodStart: string;
  @ApiProperty() periodEnd: string;
  @ApiProperty() openingNavUsd: number;
  @ApiProperty() contributionsUsd: number;
  @ApiProperty() withdrawalsUsd: number;
  @ApiProperty() grossPnlUsd: number;
  @ApiProperty() mgmtFeeUsd: number;
  @ApiProperty() perfFeeUsd: number;
  @ApiProperty() otherExpensesUsd: number;
  @ApiProperty() reportedClosingNavUsd: number;
  @ApiProperty() mgmtFeePct: number;
  @ApiProperty() perfFeePct: number;
  @ApiProperty({ type: 'number', nullable: true }) hurdlePct: number | null;
  @ApiProperty() hasHwm: boolean;
  @ApiProperty({ type: TextDigestDto }) lpRowsCsv: TextDigestDto;
  @ApiProperty({ enum: INPUT_METHODS }) inputMethod: InputMethod;
  @ApiProperty({ description: 'Days from periodStart to periodEnd, both inclusive.' }) periodDays: number;
  @ApiProperty({ enum: ['ACT/365'] }) dayCount: 'ACT/365';
  @ApiProperty({
    description:
      "The base the management fee's implied rate is measured on: the point of mgmtFeeBasisRangeUsd nearest the booked fee.",
  })
  mgmtFeeBasisUsd: number;
  @ApiProperty({ type: FeeBasisRange }) mgmtFeeBasisRangeUsd: FeeBasisRange;
  @ApiProperty({
    type: 'number',
    nullable: true,
    description:
      'The hurdle for the period: the opening NAV plus half the net flows, grown by hurdlePct over periodDays ACT/365; null without a hurdle.',
  })
  hurdleUsd: number | null;
}

class RollForward {
  @ApiProperty() openingNavUsd: number;
  @ApiProperty() netFlowsUsd: number;
  @ApiProperty() grossPnlUsd: number;
  @ApiProperty() totalFeesAndExpensesUsd: number;
  @ApiProperty() expectedClosingNavUsd: number;
  @ApiProperty() reportedClosingNavUsd: number;
  @ApiProperty({ description: 'Reported minus expected closing NAV.' }) breakUsd: number;
  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'The break in basis points of the reported closing NAV.',
  })
  breakBp: number | null;
}

export class NavCheckDto {
  @ApiProperty({ example: 'mgmt-fee-rate' }) id: string;
  @ApiProperty({ enum: ['pass', 'warn', 'fail'] }) status: 'pass' | 'warn' | 'fail';
  @ApiProperty() message: string;
  @ApiProperty({ type: 'number', nullable: true }) expected: number | null;
  @ApiProperty({ type: 'number', nullable: true }) actual: number | null;
  @ApiProperty({
    enum: ['usd', 'percent', 'count'],
    description:
      'what expected and actual are in: USD (roll-forward, LP sums), a rate in percent (fee checks), or a count (investor rows)',
  })
  unit: 'usd' | 'percent' | 'count';
}

class CheckSummary {
  @ApiProperty() pass: number;
  @ApiProperty() warn: number;
  @ApiProperty() fail: number;
}

export class NavValidatorResponse {
  @ApiProperty({ type: NavAssumptions }) assumptions: NavAssumptions;
  @ApiProperty({ enum: ['pass', 'warn', 'fail'], description: 'The worst status of the checks.' }) status:
    'pass' | 'warn' | 'fail';
  @ApiProperty({ type: RollForward }) rollForward: RollForward;
  @ApiProperty({ type: [NavCheckDto] }) checks: NavCheckDto[];
  @ApiProperty({ type: CheckSummary }) summary: CheckSummary;
  @ApiProperty() disclaimer: string;
}

export const NAV_VALIDATOR_EXAMPLE = {
  periodStart: '2025-01-01',
  periodEnd: '2025-03-31',
  openingNavUsd: 10_000_000,
  contributionsUsd: 0,
  withdrawalsUsd: 0,
  grossPnlUsd: 300_000,
  mgmtFeeUsd: 50_000,
  perfFeeUsd: 50_000,
  otherExpensesUsd: 20_000,
  reportedClosingNavUsd: 10_180_000,
  mgmtFeePct: 2,
  perfFeePct: 20,
  hasHwm: true,
  lpRowsCsv: '',
  inputMethod: 'manual',
};
