/**
 * What one update does with money, from the engine's planned steps: which
 * Orders it buys (and at what quoted price), which it adopts (buys nothing),
 * which it may buy or adopt (`adoptOrderNo` unknown at preview), which paid
 * orders it cancels, and whether each cancellation is still inside the
 * service's refund window. Plain functions over plain data, so the same
 * rules serve `pulumi preview --json` (see `steps.ts`) and Automation API
 * engine events. What each Order costs is read by `order-money.ts`, which
 * the policy pack shares.
 */
import { parseMoney, readOrderMoney } from "./order-money.js";

/** Type token of the TypeScript `Order` (its `static __pulumiType`); kept here so this module loads without @pulumi/pulumi. */
export const ORDER_TYPE = "pulumi-nodejs:dynamic/certreseller:Order";

/** Type token of the `Order` the provider plugin serves (every other language; the schema's token). */
export const PLUGIN_ORDER_TYPE = "certreseller:index:Order";

/** Type name of the Order the Terraform provider serves (a saved plan's `resource_changes[].type`); `terraform/names.ts` derives the same. */
export const TERRAFORM_ORDER_TYPE = "certreseller_order";

/**
 * Whether a resource type is an Order, from any front end: the summary,
 * the spend cap and the policy pack count them all.
 *
 * @example
 * isOrderType("certreseller:index:Order") === true
 */
export function isOrderType(type: string): boolean {
  return type === ORDER_TYPE || type === PLUGIN_ORDER_TYPE || type === TERRAFORM_ORDER_TYPE;
}

/** The service refunds a cancelled order within this many days of payment (spec: CancelOrder). */
export const REFUND_WINDOW_DAYS = 7;

const DAY_MS = 86_400_000;

/**
 * One planned step of an Order, reduced to what money depends on.
 * `old` is the resource's state before the update (its OUTPUTS: `orderNo`,
 * `price.total`, `paidAt`, `adopted`), `new` its inputs after `check`
 * (`quotedPrice`, `adoptOrderNo`).
 */
export interface MoneyStep {
  /** The engine's step op: `create`, `same`, `update`, `replace`, `create-replacement`, `delete-replaced`, `delete`, ... */
  op: string;
  urn: string;
  type: string;
  /** What the summary calls it; default: the URN's last segment (a Terraform plan gives the resource address). */
  name?: string;
  old?: Record<string, unknown>;
  new?: Record<string, unknown>;
  /** The old resource has `retainOnDelete`: deleting it leaves the order alone. */
  retainOnDelete?: boolean;
}

/** An Order the update buys. */
export interface Purchase {
  name: string;
  /** The quoted price; undefined when the preview had none (API unreachable, or an input computed by another resource). */
  price: number | undefined;
  /** The order this purchase replaces, when it is a replacement. */
  replaces?: string;
}

/** An existing order the update takes over through `adoptOrderNo`: nothing is bought. */
export interface Adoption {
  name: string;
  orderNo: string | undefined;
}

/** A paid order the update cancels (a removed Order, or the old half of a replacement). */
export interface Cancellation {
  name: string;
  orderNo: string | undefined;
  /** What was paid (`price.total`); undefined for adopted orders, whose price the API does not report. */
  paid: number | undefined;
  /** When the refund window closes (`paidAt` + 7 days); undefined when the payment time is not recorded. */
  refundUntil: Date | undefined;
  /**
   * `refund`: inside the window at `now` (the service refunds on cancel);
   * `no-refund`: past it (the order is released without refund);
   * `unknown`: no payment time recorded (adopted orders).
   */
  refund: "refund" | "no-refund" | "unknown";
}

/** A deleted Order kept at the service because of `retainOnDelete`: no cancel, no refund. */
export interface Release {
  name: string;
  orderNo: string | undefined;
}

/** An order a create that did not finish bought, which the purchase journal holds and `up` takes into state: nothing is bought. */
export interface Resumption {
  name: string;
  orderNo: string | undefined;
}

export interface MoneySummary {
  buys: Purchase[];
  adopts: Adoption[];
  /** Orders `up` resumes from the purchase journal (bought by a run that did not finish): no charge now. */
  resumes: Resumption[];
  /**
   * Orders whose `adoptOrderNo` is not known at preview: each adopts if it
   * resolves to an order number, and buys at its quoted price if it resolves
   * to nothing.
   */
  maybeBuys: Purchase[];
  cancels: Cancellation[];
  releases: Release[];
  /** Sum of the known prices of what the update buys or may buy (`buys` and `maybeBuys`): the worst case. */
  spend: number;
  /** Sum of the refunds still inside their window at `now`. */
  refunds: number;
  /** Names of purchases, sure or possible, whose price is unknown: `spend` is then a lower bound. */
  unpriced: string[];
}

/** Two-place decimal, as the API writes money. */
export const money = (n: number): string => n.toFixed(2);

/**
 * The resource name from a URN (its last `::` segment).
 *
 * @example
 * ```ts
 * nameOf("urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::site"); // "site"
 * ```
 */
export function nameOf(urn: string): string {
  const at = urn.lastIndexOf("::");
  return at >= 0 ? urn.slice(at + 2) : urn;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/**
 * The end of an order's refund window: `paidAt` + {@link REFUND_WINDOW_DAYS}.
 * `paidAt` is when the provider received CreateOrder's answer; the service
 * took the money a moment before, so its window closes that moment earlier.
 *
 * @example
 * ```ts
 * refundDeadline("2026-11-23T10:00:00.000Z"); // 2026-11-30T10:00:00.000Z
 * ```
 */
export function refundDeadline(paidAt: unknown): Date | undefined {
  const at = text(paidAt) ? Date.parse(paidAt as string) : NaN;
  return Number.isNaN(at) ? undefined : new Date(at + REFUND_WINDOW_DAYS * DAY_MS);
}

type Planned = { kind: "buys" | "maybe-buys"; purchase: Purchase } | { kind: "adopts"; adoption: Adoption } | { kind: "resumes"; resumption: Resumption };

function purchaseOf(step: MoneyStep, replaces?: string): Planned {
  const name = step.name ?? nameOf(step.urn);
  const { kind, price, orderNo } = readOrderMoney(step.new);
  if (kind === "adopts") return { kind, adoption: { name, orderNo } };
  if (kind === "resumes") return { kind, resumption: { name, orderNo } };
  return { kind, purchase: { name, price, ...(replaces ? { replaces } : {}) } };
}

function cancellationOf(step: MoneyStep, now: Date): Cancellation | Release {
  const outputs = step.old ?? {};
  const name = step.name ?? nameOf(step.urn);
  const orderNo = text(outputs.orderNo);
  if (step.retainOnDelete) return { name, orderNo };
  const price = outputs.price && typeof outputs.price === "object" ? (outputs.price as Record<string, unknown>).total : undefined;
  const refundUntil = refundDeadline(outputs.paidAt);
  const refund = refundUntil === undefined ? "unknown" : now.getTime() < refundUntil.getTime() ? "refund" : "no-refund";
  return { name, orderNo, paid: parseMoney(price), refundUntil, refund };
}

/**
 * Sums up an update's money from its planned steps. Only Orders count;
 * `same`, `update` (a verification method change), `read` and refresh steps
 * move no money. A replacement appears as `create-replacement` (the new
 * purchase) and `delete-replaced` (the cancellation), plus a `replace` marker
 * that is counted only when its halves are missing.
 *
 * @example
 * ```ts
 * summarize([{ op: "create", urn: "urn:...::Order::site", type: ORDER_TYPE, new: { quotedPrice: "100.00" } }], new Date());
 * // { buys: [{ name: "site", price: 100 }], spend: 100, cancels: [], ... }
 * ```
 */
export function summarize(steps: MoneyStep[], now: Date): MoneySummary {
  const orders = steps.filter((s) => isOrderType(s.type));
  const halves = new Map<string, Set<string>>();
  for (const step of orders) {
    if (!halves.has(step.urn)) halves.set(step.urn, new Set());
    halves.get(step.urn)!.add(step.op);
  }
  const summary: MoneySummary = { buys: [], adopts: [], resumes: [], maybeBuys: [], cancels: [], releases: [], spend: 0, refunds: 0, unpriced: [] };
  const add = (planned: Planned) => {
    if (planned.kind === "adopts") summary.adopts.push(planned.adoption);
    else if (planned.kind === "resumes") summary.resumes.push(planned.resumption);
    else (planned.kind === "buys" ? summary.buys : summary.maybeBuys).push(planned.purchase);
  };
  const remove = (item: Cancellation | Release) => {
    if ("refund" in item) summary.cancels.push(item);
    else summary.releases.push(item);
  };
  for (const step of orders) {
    const ops = halves.get(step.urn)!;
    const oldOrderNo = text(step.old?.orderNo);
    switch (step.op) {
      case "create":
        add(purchaseOf(step));
        break;
      case "create-replacement":
        add(purchaseOf(step, oldOrderNo));
        break;
      case "delete":
      case "delete-replaced":
        remove(cancellationOf(step, now));
        break;
      case "replace":
        if (!ops.has("create-replacement")) add(purchaseOf(step, oldOrderNo));
        if (!ops.has("delete-replaced")) remove(cancellationOf(step, now));
        break;
      default:
        break;
    }
  }
  // A possible purchase counts at its quoted price: the cap must hold in the worst case.
  for (const purchase of [...summary.buys, ...summary.maybeBuys]) {
    if (purchase.price === undefined) summary.unpriced.push(purchase.name);
    else summary.spend += purchase.price;
  }
  for (const cancel of summary.cancels) if (cancel.refund === "refund" && cancel.paid !== undefined) summary.refunds += cancel.paid;
  summary.spend = Math.round(summary.spend * 100) / 100;
  summary.refunds = Math.round(summary.refunds * 100) / 100;
  return summary;
}

/**
 * A deadline as the summary prints it, in UTC to the minute (rounded down,
 * so "before" never names a time already past the window).
 *
 * @example
 * ```ts
 * formatDeadline(new Date("2026-11-30T10:00:59Z")); // "2026-11-30 10:00 UTC"
 * ```
 */
export function formatDeadline(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The known prices' sum, plus how many have none: `100.00`, `100.00 + 2 unpriced`. */
function subtotal(purchases: Purchase[]): string {
  const sum = purchases.reduce((total, p) => total + (p.price ?? 0), 0);
  const unpriced = purchases.filter((p) => p.price === undefined).length;
  return unpriced === 0 ? money(sum) : `${money(sum)} + ${unpriced} unpriced`;
}

/** What a possible purchase turns into when its `adoptOrderNo` resolves to an order number. */
const UNLESS_ADOPTED = "unless adoptOrderNo resolves to an order number";

/**
 * The one-line summary, e.g.
 * `buys 3 certificates (300.00), cancels 1 (refund 100.00 if run before 2026-11-30 10:00 UTC)`.
 * Possible purchases read `buys up to 1 (900.00) — or adopts it if adoptOrderNo resolves to an order number`.
 *
 * @example
 * ```ts
 * headline(summarize(steps, now)); // "buys 1 certificate (100.00), cancels nothing"
 * ```
 */
export function headline(summary: MoneySummary): string {
  const parts: string[] = [];
  const sure = summary.buys.length;
  const maybe = summary.maybeBuys.length;
  let buying = sure === 0 ? "buys nothing" : `buys ${plural(sure, "certificate", "certificates")} (${subtotal(summary.buys)})`;
  if (maybe > 0) {
    buying = sure === 0 ? `buys up to ${maybe} (${subtotal(summary.maybeBuys)})` : `${buying} and up to ${maybe} more (${subtotal(summary.maybeBuys)})`;
    buying += maybe === 1 ? " — or adopts it if adoptOrderNo resolves to an order number" : " — or adopts them if their adoptOrderNo resolves to order numbers";
  }
  parts.push(buying);
  if (summary.adopts.length > 0) parts.push(`adopts ${summary.adopts.length} (no charge)`);
  if (summary.resumes.length > 0) parts.push(`resumes ${summary.resumes.length} bought by an interrupted run (no charge)`);
  if (summary.cancels.length === 0) parts.push("cancels nothing");
  else {
    const details = summary.cancels.map((c) => {
      const paid = c.paid === undefined ? "amount not recorded" : money(c.paid);
      if (c.refund === "refund") return `refund ${paid} if run before ${formatDeadline(c.refundUntil!)}`;
      if (c.refund === "no-refund") return `no refund: window closed ${formatDeadline(c.refundUntil!)}`;
      return `refund unknown: payment time not recorded`;
    });
    parts.push(`cancels ${summary.cancels.length} (${details.join("; ")})`);
  }
  if (summary.releases.length > 0) parts.push(`releases ${summary.releases.length} kept by retainOnDelete (no cancel)`);
  return parts.join(", ");
}

/**
 * The headline plus one line per Order, as the command prints it.
 *
 * @example
 * ```ts
 * console.log(report(summarize(steps, now)).join("\n"));
 * ```
 */
export function report(summary: MoneySummary): string[] {
  const lines = [`This update ${headline(summary)}.`];
  for (const b of summary.buys) {
    const price = b.price === undefined ? "price unknown (no quote at preview)" : money(b.price);
    lines.push(`  buy     ${b.name}: ${price}${b.replaces ? ` (replaces order ${b.replaces})` : ""}`);
  }
  for (const b of summary.maybeBuys) {
    const price = b.price === undefined ? "price unknown (no quote at preview)" : money(b.price);
    lines.push(`  buy?    ${b.name}: ${price}${b.replaces ? ` (replaces order ${b.replaces})` : ""} ${UNLESS_ADOPTED} (then adopted, 0.00)`);
  }
  for (const a of summary.adopts) lines.push(`  adopt   ${a.name}: order ${a.orderNo ?? "(no number)"}, 0.00`);
  for (const r of summary.resumes) lines.push(`  resume  ${r.name}: order ${r.orderNo ?? "(no number)"} from the purchase journal (bought by a run that did not finish), 0.00`);
  for (const c of summary.cancels) {
    const order = `order ${c.orderNo ?? "(no number)"}`;
    const paid = c.paid === undefined ? "paid amount not recorded" : `paid ${money(c.paid)}`;
    const fate =
      c.refund === "refund"
        ? `refunded if cancelled before ${formatDeadline(c.refundUntil!)}`
        : c.refund === "no-refund"
          ? `refund window closed ${formatDeadline(c.refundUntil!)}: released without refund`
          : "payment time not recorded: refund depends on the service";
    lines.push(`  cancel  ${c.name}: ${order}, ${paid}, ${fate}`);
  }
  for (const r of summary.releases) lines.push(`  release ${r.name}: order ${r.orderNo ?? "(no number)"} stays at the service (retainOnDelete)`);
  return lines;
}

/** The cap on what one update buys. */
export interface SpendCap {
  /** Highest sum of the quoted prices of the Orders one update buys or may buy (an `adoptOrderNo` unknown at preview). */
  maxSpend: number;
  /**
   * Let purchases without a quoted price through. Off by default: an
   * unknown price cannot be shown to be under the cap.
   */
  allowUnpriced?: boolean;
}

/**
 * Violations of the cap on what one update buys (adoptions count nothing,
 * Orders the stack already holds count nothing). A possible purchase (an
 * `adoptOrderNo` unknown at preview) counts at its quoted price: if the value
 * resolves to nothing at `up`, the Order buys.
 *
 * @example
 * ```ts
 * checkSpend(summarize(steps, now), { maxSpend: 150 });
 * // ["this update buys 200.00, above the cap of 150.00 (a 100.00, b 100.00)"]
 * ```
 */
export function checkSpend(summary: MoneySummary, cap: SpendCap): string[] {
  const violations: string[] = [];
  if (summary.spend > cap.maxSpend) {
    const sure = summary.buys.filter((b) => b.price !== undefined).map((b) => `${b.name} ${money(b.price!)}`);
    const maybe = summary.maybeBuys.filter((b) => b.price !== undefined).map((b) => `${b.name} ${money(b.price!)} ${UNLESS_ADOPTED}`);
    const buys = maybe.length === 0 ? "buys" : "may buy up to";
    violations.push(`this update ${buys} ${money(summary.spend)}, above the cap of ${money(cap.maxSpend)} (${[...sure, ...maybe].join(", ")})`);
  }
  if (summary.unpriced.length > 0 && !cap.allowUnpriced) {
    violations.push(
      `${summary.unpriced.join(", ")}: no quoted price at preview (is the API reachable? is an input computed by another resource?), ` +
        `so the cap of ${money(cap.maxSpend)} cannot be checked; pass --allow-unpriced to accept that`,
    );
  }
  return violations;
}
