// The demo fund's investors, capital activity and expenses, drawn from the generator's seeded random stream.
import { addDays, endOfMonth } from '../dates';
import { fundScopedId } from '../ids';
import { Decimal } from '../money';
import type { FlowEvent } from '../nav/engine-types';
import type { ExpenseTerms } from '../nav/expense-accrual';
import type { SeededRandom } from './prng';
import {
  DEMO_END_DATE,
  DEMO_INCEPTION_DATE,
  ENTITY_KINDS,
  ENTITY_WORDS,
  FIRST_NAMES,
  LAST_NAMES,
} from './demo-universe';

export const GEN_FUND = 'demo-generator';

export interface PlannedFlow {
  ref: string;
  investor: string;
  shareClass: string;
  type: 'subscription' | 'redemption';
  amount: string | null;
  fraction: string | null;
  dealingDate: string;
  status: 'pending' | 'running' | 'executed' | 'settled' | 'cancelled' | 'failed';
  createdAt: string;
}

export interface PlannedInvestor {
  id: string;
  shareClass: string;
  displayName: string;
  type: string;
  legalName: string;
  email: string;
  address: string;
  taxId: string;
}

export interface PlannedExpense extends Omit<ExpenseTerms, 'periodEnd'> {
  vendor: string;
}

export function flowEvent(f: PlannedFlow): FlowEvent {
  return {
    ref: f.ref,
    flowId: fundScopedId(GEN_FUND, 'capital-activity', f.ref),
    investorId: fundScopedId(GEN_FUND, 'investor', f.investor),
    classId: fundScopedId(GEN_FUND, 'share-class', f.shareClass),
    type: f.type,
    amount: f.amount === null ? null : new Decimal(f.amount),
    fraction: f.fraction === null ? null : new Decimal(f.fraction),
  };
}

export function planInvestors(rng: SeededRandom): PlannedInvestor[] {
  const out: PlannedInvestor[] = [];
  for (let n = 1; n <= 50; n++) {
    const id = `INV${String(n).padStart(3, '0')}`;
    const shareClass = n <= 4 ? 'Class M' : n <= 32 ? 'Class A' : 'Class B';
    const individual = shareClass === 'Class M' || rng.next() < 0.45;
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const kind = rng.pick(ENTITY_KINDS);
    const legalName = individual ? `${first} ${last}` : `${rng.pick(ENTITY_WORDS)} ${kind.suffix} (fictional)`;
    out.push({
      id,
      shareClass,
      displayName: `Investor ${String(n).padStart(3, '0')}`,
      type: shareClass === 'Class M' ? 'management' : individual ? 'individual' : kind.type,
      legalName,
      email: `${individual ? `${first}.${last}` : `ops${n}`}@example.${individual ? 'com' : 'org'}`.toLowerCase(),
      address: `${rng.int(1, 999)} Example Street, Suite ${rng.int(100, 999)}, Springfield, XX ${String(rng.int(10000, 99999))}`,
      taxId: `XX-${String(rng.int(1000000, 9999999))}`,
    });
  }
  return out;
}

/** Investors numbered 1-24 and 33-42 subscribe on the inception date; the others join later. */
const subscribesAtInception = (inv: PlannedInvestor) => {
  const n = Number(inv.id.slice(3));
  return n <= 4 || n <= 24 || (n >= 33 && n <= 42);
};

/** The flows planned so far and the investors holding units; every draw comes from the one seeded stream. */
class FlowPlan {
  readonly flows: PlannedFlow[] = [];
  readonly holders = new Set<string>();

  constructor(
    private readonly rng: SeededRandom,
    readonly investors: PlannedInvestor[],
  ) {}

  add(
    inv: PlannedInvestor,
    type: 'subscription' | 'redemption',
    dealingDate: string,
    amount: string | null,
    fraction: string | null,
    status?: PlannedFlow['status'],
  ): void {
    const rng = this.rng;
    const created = addDays(dealingDate, type === 'subscription' ? -rng.int(6, 20) : -rng.int(31, 45));
    this.flows.push({
      ref: '',
      investor: inv.id,
      shareClass: inv.shareClass,
      type,
      amount,
      fraction,
      dealingDate,
      status: status ?? (addDays(dealingDate, 3) <= DEMO_END_DATE ? 'settled' : 'executed'),
      createdAt: `${created}T${String(rng.int(8, 17)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:00Z`,
    });
  }

  /** Holders other than management, who trade in and out during the life of the fund. */
  tradingHolders(): PlannedInvestor[] {
    return this.investors.filter((i) => this.holders.has(i.id) && i.shareClass !== 'Class M');
  }

  investor(id: string): PlannedInvestor {
    return this.investors.find((i) => i.id === id)!;
  }

  /** The flows with their references CF00001, CF00002... in planning order. */
  numbered(): PlannedFlow[] {
    this.flows.forEach((f, i) => {
      f.ref = `CF${String(i + 1).padStart(5, '0')}`;
    });
    return this.flows;
  }
}

/** The month ends after inception up to the end of the demo. */
function monthEnds(): string[] {
  const months: string[] = [];
  for (let d = endOfMonth(addDays(DEMO_INCEPTION_DATE, 1)); d <= DEMO_END_DATE; d = endOfMonth(addDays(d, 1)))
    months.push(d);
  return months;
}

/** The one-off events of the demo, by dealing month: full redemptions, a cancelled subscription, a failed redemption. */
function specialMonths(months: string[]) {
  return {
    fullRedemptions: new Map([
      [months[9], 'INV007'],
      [months[20], 'INV036'],
      [months[28], 'INV015'],
    ]),
    cancelled: new Set([months[4], months[13], months[25]]),
    failed: new Set([months[7], months[22]]),
  };
}

function planInceptionSubscriptions(plan: FlowPlan, rng: SeededRandom): void {
  for (const inv of plan.investors) {
    if (subscribesAtInception(inv)) {
      const amount =
        inv.shareClass === 'Class M'
          ? rng.int(10, 25) * 100_000
          : inv.shareClass === 'Class A'
            ? rng.int(10, 60) * 100_000
            : rng.int(20, 80) * 100_000;
      plan.add(inv, 'subscription', DEMO_INCEPTION_DATE, `${amount}.00`, null);
      plan.holders.add(inv.id);
    }
  }
}

/** One dealing month: maybe a newcomer, top-ups, partial redemptions and that month's one-off events. */
function planMonth(
  plan: FlowPlan,
  rng: SeededRandom,
  month: string,
  waiting: PlannedInvestor[],
  special: ReturnType<typeof specialMonths>,
): void {
  if (waiting.length && rng.next() < 0.6) {
    const inv = waiting.shift()!;
    plan.add(inv, 'subscription', month, `${rng.int(5, 40) * 100_000}.00`, null);
    plan.holders.add(inv.id);
  }
  const holderList = plan.tradingHolders();
  for (let k = rng.int(0, 2); k > 0; k--)
    plan.add(rng.pick(holderList), 'subscription', month, `${rng.int(2, 20) * 50_000}.00`, null);
  for (let k = rng.int(0, 2); k > 0; k--) {
    const inv = rng.pick(holderList);
    if (rng.next() < 0.65) plan.add(inv, 'redemption', month, null, rng.uniform(0.1, 0.4).toFixed(4));
    else plan.add(inv, 'redemption', month, `${rng.int(2, 10) * 50_000}.00`, null);
  }
  const full = special.fullRedemptions.get(month);
  if (full && plan.holders.has(full)) {
    plan.add(plan.investor(full), 'redemption', month, null, '1');
    plan.holders.delete(full);
  }
  if (special.cancelled.has(month))
    plan.add(rng.pick(holderList), 'subscription', month, `${rng.int(2, 10) * 100_000}.00`, null, 'cancelled');
  if (special.failed.has(month))
    plan.add(rng.pick(holderList), 'redemption', month, `${rng.int(2, 6) * 100_000}.00`, null, 'failed');
}

/** Requests for the dealing date after the demo ends, still pending or running. */
function planOpenRequests(plan: FlowPlan, rng: SeededRandom): void {
  const next = endOfMonth(addDays(DEMO_END_DATE, 1));
  const holderList = plan.tradingHolders();
  plan.add(plan.investor('INV050'), 'subscription', next, '1500000.00', null, 'pending');
  plan.add(rng.pick(holderList), 'subscription', next, '750000.00', null, 'pending');
  plan.add(rng.pick(holderList), 'redemption', next, null, '0.2500', 'pending');
  plan.add(rng.pick(holderList), 'redemption', next, '400000.00', null, 'running');
  plan.add(rng.pick(holderList), 'subscription', next, '300000.00', null, 'running');
}

export function planFlows(rng: SeededRandom, investors: PlannedInvestor[]): PlannedFlow[] {
  const plan = new FlowPlan(rng, investors);
  const waiting = investors.filter((i) => !subscribesAtInception(i) && i.id !== 'INV050');
  planInceptionSubscriptions(plan, rng);
  const months = monthEnds();
  const special = specialMonths(months);
  for (const month of months) planMonth(plan, rng, month, waiting, special);
  planOpenRequests(plan, rng);
  return plan.numbered();
}

export function planExpenses(rng: SeededRandom): PlannedExpense[] {
  const lines = [
    {
      category: 'administration',
      code: 'ADM',
      vendor: 'Example Fund Administration Ltd',
      label: 'Fund administration',
      base: 14_000,
    },
    { category: 'audit', code: 'AUD', vendor: 'Example Audit LLP', label: 'Audit fee accrual', base: 5_000 },
    { category: 'legal', code: 'LEG', vendor: 'Example Legal LLP', label: 'Legal counsel', base: 3_500 },
    {
      category: 'other',
      code: 'OTH',
      vendor: 'Example Market Data Inc.',
      label: 'Market data and operations',
      base: 1_200,
    },
  ];
  const out: PlannedExpense[] = [];
  for (let first = addDays(DEMO_INCEPTION_DATE, 1); first <= DEMO_END_DATE; first = addDays(endOfMonth(first), 1)) {
    for (const l of lines) {
      const amount = new Decimal((l.base * rng.uniform(0.9, 1.1)).toFixed(2));
      const paid = addDays(endOfMonth(first), 10);
      out.push({
        ref: `EXP-${first.slice(0, 7)}-${l.code}`,
        category: l.category,
        vendor: l.vendor,
        description: `${l.label} ${first.slice(0, 7)}`,
        accrualDate: first,
        amount,
        paidDate: paid <= DEMO_END_DATE ? paid : null,
      });
    }
  }
  return out;
}
