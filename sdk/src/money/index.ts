/**
 * An update's money at preview: what it buys, adopts, cancels and refunds,
 * and a cap on what one update buys. The `certreseller-preview-money`
 * command (`cmd/certreseller-preview-money.ts`) wraps `pulumi preview --json` with it; import
 * `pulumi-certreseller/dist/money/index.js` to run the same rules on
 * Automation API engine events. The `certreseller-guardrails` policy pack
 * imports `readOrderMoney` from here, so both price an Order alike.
 */
export {
  ORDER_TYPE,
  PLUGIN_ORDER_TYPE,
  TERRAFORM_ORDER_TYPE,
  isOrderType,
  REFUND_WINDOW_DAYS,
  checkSpend,
  formatDeadline,
  headline,
  money,
  nameOf,
  refundDeadline,
  report,
  summarize,
  type Adoption,
  type Cancellation,
  type MoneyStep,
  type MoneySummary,
  type Purchase,
  type Release,
  type SpendCap,
} from "./summary.js";
export { fromEngineEvents, fromPreviewJson, fromTerraformPlan } from "./steps.js";
export { parseMoney, readOrderMoney, type OrderMoney, type OrderMoneyKind } from "./order-money.js";
