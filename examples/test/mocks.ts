/**
 * A `pulumi.runtime.setMocks` harness for the examples' graph tests: plays
 * the Partner API's answers for the certreseller resources, records every
 * registration with its inputs and its declared dependencies (the mock
 * monitor's `registerResource` request carries them), and resolves outputs.
 */
import * as pulumi from "@pulumi/pulumi";
import { opensslSelfSigned } from "../../tests/support/openssl";

export const TYPES = {
  order: "pulumi-nodejs:dynamic/certreseller:Order",
  validation: "pulumi-nodejs:dynamic/certreseller:Validation",
  certificate: "pulumi-nodejs:dynamic/certreseller:Certificate",
  sandboxDns: "pulumi-nodejs:dynamic/certreseller-testing:SandboxDnsRecord",
  sandboxFile: "pulumi-nodejs:dynamic/certreseller-testing:SandboxFileRecord",
  cloudflareDns: "cloudflare:index/dnsRecord:DnsRecord",
  localCsr: "pulumi-nodejs:dynamic/custom-csr:LocalCsr",
  webRootFile: "pulumi-nodejs:dynamic/file-validation:WebRootFile",
} as const;

export interface Registration {
  type: string;
  name: string;
  urn: string;
  inputs: Record<string, any>;
  /** Names of the resources this one was declared to depend on (dependsOn and input dependencies). */
  dependsOn: string[];
  /**
   * Outputs the resource asked the engine to keep secret. The engine applies
   * this option; the mock monitor does not, so tests assert the request.
   */
  additionalSecretOutputs: string[];
}

/**
 * The key and leaf the mock Certificate returns. Real ones (a self-signed
 * certificate made by the openssl CLI): the Certificate derives
 * `privateKeyPkcs8Pem`, `combinedPem`, `serialNumber`, `fingerprintSha256`,
 * `notBefore` and the PKCS#12 bundle from them in the program, and those
 * parse them.
 */
const { MOCK_PRIVATE_KEY_PEM, MOCK_CERTIFICATE_PEM } = selfSignedCertificate("mock.example.com");

function selfSignedCertificate(name: string): { MOCK_PRIVATE_KEY_PEM: string; MOCK_CERTIFICATE_PEM: string } {
  const { keyPem, certificatePem } = opensslSelfSigned(name);
  // As the provider stores them: one block, trailing newline.
  return { MOCK_PRIVATE_KEY_PEM: keyPem.trim() + "\n", MOCK_CERTIFICATE_PEM: certificatePem.trim() + "\n" };
}

/** The mock's deterministic validation token for a name. */
export const tokenFor = (domain: string) => `token-for-${domain}`;

function base(domain: string): string {
  return domain.replace(/^\*\./, "");
}

/** What the sandbox's GetRecord would answer for an order's names, shaped as the Validation outputs them (one record per ordered name). */
export function mockRecords(domains: string[], method: string) {
  return domains.map((d, i) => {
    const dns = method === "dns" || method === "cname";
    const file = method === "file";
    const label = dns ? "_dnsauth" : `${i}ABCDEF.txt`;
    const path = file ? `/.well-known/pki-validation/${label}` : "";
    return {
      domain: base(d),
      orderedName: d,
      type: i === 0 ? "main" : d.startsWith("*.") ? "wildcard" : "san",
      method,
      name: label,
      fqdn: dns ? `${label}.${base(d)}` : "",
      recordType: dns ? (method === "cname" ? "CNAME" : "TXT") : file ? "FILE" : "",
      value: dns ? tokenFor(d) : "",
      // The full URL the CA fetches (the specification's file records carry it as their path).
      url: file ? `http://${base(d)}${path}` : "",
      path,
      content: file ? tokenFor(d) : "",
      email: "",
      hint: "",
    };
  });
}

function outputsFor(type: string, name: string, inputs: Record<string, any>): Record<string, unknown> {
  switch (type) {
    case TYPES.order:
      return {
        ...inputs,
        orderNo: `CERT20261122093000${name.length.toString().padStart(4, "0")}`,
        requestId: "SIG-202611220930000000-ABC123",
        certStatus: 2,
        price: { basePrice: "100.00", sanCount: 0, sanPrice: "0.00", wildcardCount: 0, wildcardPrice: "0.00", discount: "0.00", total: "100.00" },
      };
    case TYPES.validation:
      return { ...inputs, method: inputs.method ?? "dns", records: mockRecords(inputs.domains ?? [], inputs.method ?? "dns") };
    case TYPES.certificate:
      return {
        ...inputs,
        certId: "5f0c7a1e-0000-4000-8000-000000000001",
        // Only what the provider stores; the class computes fullChainPem and the rest.
        certificatePem: MOCK_CERTIFICATE_PEM,
        chainPem: "",
        privateKeyPem: MOCK_PRIVATE_KEY_PEM,
        notAfter: "2027-11-22T09:30:00Z",
        domains: [],
      };
    case TYPES.localCsr:
      return {
        ...inputs,
        csrPem: "-----BEGIN CERTIFICATE REQUEST-----\nmock\n-----END CERTIFICATE REQUEST-----\n",
        publicKeyPem: "-----BEGIN PUBLIC KEY-----\nmock\n-----END PUBLIC KEY-----\n",
        privateKeyPem: "-----BEGIN PRIVATE KEY-----\nlocal\n-----END PRIVATE KEY-----\n",
      };
    default:
      return inputs;
  }
}

/**
 * Installs the mocks and returns the registrations, filled in as the
 * program registers resources.
 */
export async function installMocks(opts: { preview?: boolean; config?: Record<string, string> } = {}): Promise<Registration[]> {
  const registrations: Registration[] = [];
  if (opts.config) pulumi.runtime.setAllConfig(opts.config);
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        const state = outputsFor(args.type, args.name, args.inputs);
        // As the provider does: an Order's id is its order number (a Certificate given `{ order }` follows it).
        const id = args.type === TYPES.order ? String(state.orderNo) : `${args.name}-id`;
        return { id, state };
      },
      call(args) {
        return args.inputs;
      },
    },
    "examples",
    "test",
    opts.preview ?? false,
  );
  const monitor = pulumi.runtime.getMonitor() as any;
  const register = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req: any, callback: (err: unknown, res: any) => void) => {
    const dependsOn = new Set<string>(req.getDependenciesList().map((urn: string) => urn.split("::").pop()!));
    req.getPropertydependenciesMap().forEach((deps: any) => {
      for (const urn of deps.getUrnsList()) dependsOn.add(urn.split("::").pop()!);
    });
    return register(req, (err: unknown, res: any) => {
      if (!err && res) {
        registrations.push({
          type: req.getType(),
          name: req.getName(),
          urn: res.getUrn(),
          inputs: pulumi.runtime.deserializeProperties(req.getObject()),
          dependsOn: [...dependsOn],
          additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
        });
      }
      callback(err, res);
    });
  };
  return registrations;
}

/** The value of an output (undefined while unknown in a preview). */
export function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((v) => resolve(v)));
}

/** Waits until every listed output has resolved, i.e. all resources are registered. */
export async function settle(outputs: Record<string, pulumi.Output<unknown> | unknown>): Promise<Record<string, unknown>> {
  const entries = await Promise.all(
    Object.entries(outputs).map(async ([k, v]) => [k, pulumi.Output.isInstance(v) ? await valueOf(v) : v] as const),
  );
  return Object.fromEntries(entries);
}

export const byType = (regs: Registration[], type: string) => regs.filter((r) => r.type === type);
