export * from "./client/index.js";
export { Order, type OrderArgs } from "./resources/order.js";
export type { OrderPriceState } from "./resources/order/types.js";
export * as testing from "./testing/index.js";
