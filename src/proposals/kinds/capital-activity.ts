import Decimal from 'decimal.js';
import { type FieldError, unprocessable } from '../../common/errors/problem';
import { todayUtc } from '../../common/validation/calendar-date';
import { describeCalendar, isDealingDate, noticeDays } from '../../fund/reporting/dealing-calendar';
import type { CapitalActivityProposalDto } from '../dto/propose.dto';
import type { ProposalBooksRepository } from '../proposal-books.repository';
import { type ProposalKindRules, badShape } from './kind';

export interface CapitalPayload {
  investorId: string;
  type: string;
  shareClass: string;
  shareClassId?: string;
  amount: string | null;
  fraction: string | null;
  dealingDate: string;
}

export const capitalActivity: ProposalKindRules<CapitalActivityProposalDto, CapitalPayload> = {
  validate(b) {
    const errors: FieldError[] = [];
    if ((b.amount === undefined) === (b.fraction === undefined)) {
      errors.push(
        { field: 'amount', message: 'exactly one of amount and fraction is required' },
        { field: 'fraction', message: 'exactly one of amount and fraction is required' },
      );
    } else if (b.type === 'subscription' && b.fraction !== undefined) {
      errors.push({ field: 'fraction', message: 'a subscription is an amount, not a fraction' });
    }
    if (b.amount !== undefined && new Decimal(b.amount).isZero())
      errors.push({ field: 'amount', message: 'must be positive' });
    if (b.fraction !== undefined && new Decimal(b.fraction).isZero())
      errors.push({ field: 'fraction', message: 'must be positive' });
    if (errors.length) throw badShape(errors);
    return {
      investorId: b.investorId.toLowerCase(),
      type: b.type,
      shareClass: b.shareClass,
      amount: b.amount !== undefined ? new Decimal(b.amount).toFixed(2) : null,
      fraction: b.fraction !== undefined ? new Decimal(b.fraction).toString() : null,
      dealingDate: b.dealingDate,
    };
  },

  async check(books, fundId, p, lock) {
    const investor = await books.investorStatus(fundId, p.investorId, lock);
    if (!investor)
      throw unprocessable(`unknown investor ${p.investorId}`, [{ field: 'investorId', message: 'unknown investor' }]);
    // only an active investor deals: a pending one has not cleared onboarding (KYC), a redeemed or closed one has left
    if (investor !== 'active')
      throw unprocessable(`investor ${p.investorId} is ${investor}: only active investors subscribe or redeem`, [
        { field: 'investorId', message: `investor is ${investor}, not active` },
      ]);
    // at approval, the class the checker saw (its id, stored at staging), even if renamed since
    const shareClass = await books.shareClass(fundId, p.shareClassId ?? p.shareClass, lock);
    if (!shareClass)
      throw unprocessable(`unknown share class "${p.shareClass}"`, [
        { field: 'shareClass', message: 'unknown share class' },
      ]);
    if (p.type === 'subscription' && shareClass.status === 'closed') {
      throw unprocessable(`share class "${shareClass.name}" is closed to subscriptions`, [
        { field: 'shareClass', message: 'closed to subscriptions' },
      ]);
    }
    const terms = await books.dealingTerms(fundId);
    if (!isDealingDate(p.dealingDate, terms.frequency)) {
      throw unprocessable(
        `dealing date ${p.dealingDate} is not on the dealing calendar (${terms.frequency}: ${describeCalendar(terms.frequency)})`,
        [{ field: 'dealingDate', message: 'not on the dealing calendar' }],
      );
    }
    const notice = p.type === 'subscription' ? terms.subscriptionNoticeDays : terms.redemptionNoticeDays;
    if (noticeDays(todayUtc(), p.dealingDate) < notice) {
      throw unprocessable(`dealing date ${p.dealingDate} is inside the ${notice}-day ${p.type} notice period`, [
        { field: 'dealingDate', message: `needs ${notice} days of notice` },
      ]);
    }
    await checkHolding(books, fundId, p, shareClass);
    return { ...p, shareClass: shareClass.name, shareClassId: shareClass.id };
  },

  async execute(books, fundId, ref, p) {
    const id = await books.insertCapitalActivity(fundId, ref, p);
    return { executionRef: `capital-activity:${id}` };
  },
};

/**
 * What needs an existing holding in the class on the dealing date: a redemption (there must be units
 * to redeem; an amount above the holding's value is dealt as a full redemption), and a subscription
 * into a soft-closed class (open to its existing investors only).
 */
async function checkHolding(
  books: ProposalBooksRepository,
  fundId: string,
  p: CapitalPayload,
  shareClass: { id: string; name: string; status: string },
): Promise<void> {
  const needed = p.type === 'redemption' || shareClass.status === 'soft_closed';
  if (!needed || (await books.holdsUnitsBefore(fundId, p.investorId, shareClass.id, p.dealingDate))) return;
  if (p.type === 'redemption')
    throw unprocessable(
      `investor ${p.investorId} holds no units of "${shareClass.name}" to redeem on ${p.dealingDate}`,
      [{ field: 'investorId', message: `holds no units of ${shareClass.name} on the dealing date` }],
    );
  throw unprocessable(`share class "${shareClass.name}" is soft-closed: open to its existing investors only`, [
    { field: 'shareClass', message: 'soft-closed to new investors' },
  ]);
}
