export { getAccount, getAccountOutput, type GetAccountResult } from "./get-account.js";
export { getProducts, getProductsOutput, type GetProductsArgs, type GetProductsOutputArgs, type GetProductsResult } from "./get-products.js";
