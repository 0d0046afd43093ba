import type { ToolName } from '../catalog';
import { operatingView, savingsView } from './costs';
import { exposureView } from './exposure';
import { feeView } from './fee';
import { graderView } from './grader';
import { healthView } from './health';
import { navView } from './nav';
import type { ResultView } from './view';

export const VIEWS: Record<ToolName, ResultView> = {
  'fee-calculator': feeView,
  'nav-validator': navView,
  'exposure-analysis': exposureView,
  'operating-cost-calculator': operatingView,
  'back-office-savings': savingsView,
  'fund-health-check': healthView,
  'lp-report-grader': graderView,
};
