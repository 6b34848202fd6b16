import type {
  ApplySignResult,
  CallOptions,
  CancelOrderRequest,
  CancelOrderResult,
  CertificateDownload,
  CertificateStatus,
  ChangeVerificationMethodRequest,
  ChangeVerificationMethodResult,
  CreateOrderRequest,
  CreateOrderResult,
  DownloadCertificateRequest,
  ListProductsFilter,
  OrderRef,
  PartnerApi,
  PartnerClientOptions,
  Product,
  ProductPage,
  RecordSet,
  UserData,
} from "./types.js";

// Public surface committed first so the resource layer can code against it;
// the implementation lands in the next commits.
const pending = (): never => {
  throw new Error("PartnerClient: implementation pending");
};

/**
 * Typed client of the Certificate Reseller Partner API.
 *
 * @example
 * const client = new PartnerClient({ baseUrl: "http://127.0.0.1:8080", apiKey: process.env.CERTRESELLER_API_KEY! });
 * try {
 *   const order = await client.createOrder({ productCode: "sandbox-dv-single", domain: "example.com" });
 *   const { records } = await client.applySign({ orderNo: order.orderNo });
 * } finally {
 *   await client.close();
 * }
 */
export class PartnerClient implements PartnerApi {
  constructor(options: PartnerClientOptions) {
    void options;
  }
  getUserData(options?: CallOptions): Promise<UserData> {
    return pending();
  }
  listProducts(filter?: ListProductsFilter, options?: CallOptions): Promise<ProductPage> {
    return pending();
  }
  listAllProducts(filter?: Omit<ListProductsFilter, "page">, options?: CallOptions): Promise<Product[]> {
    return pending();
  }
  createOrder(request: CreateOrderRequest, options?: CallOptions): Promise<CreateOrderResult> {
    return pending();
  }
  applySign(request: OrderRef, options?: CallOptions): Promise<ApplySignResult> {
    return pending();
  }
  getRecord(request: OrderRef, options?: CallOptions): Promise<RecordSet> {
    return pending();
  }
  changeVerificationMethod(request: ChangeVerificationMethodRequest, options?: CallOptions): Promise<ChangeVerificationMethodResult> {
    return pending();
  }
  cancelOrder(request: CancelOrderRequest, options?: CallOptions): Promise<CancelOrderResult> {
    return pending();
  }
  getCertificateStatus(request: OrderRef, options?: CallOptions): Promise<CertificateStatus> {
    return pending();
  }
  downloadCertificate(request: DownloadCertificateRequest, options?: CallOptions): Promise<CertificateDownload> {
    return pending();
  }
  close(): Promise<void> {
    return pending();
  }
}
