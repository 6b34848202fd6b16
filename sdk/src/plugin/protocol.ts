/**
 * The provider protocol as the Node SDK ships it: the generated messages and
 * service definition under `@pulumi/pulumi/proto`, and the gRPC and protobuf
 * libraries that package itself depends on (resolved from its folder, so
 * there is one copy of each and no second dependency to keep in step).
 */
import * as path from "node:path";

const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const fromPulumi = (name: string) => require(require.resolve(name, { paths: [pulumiDir] }));

export const grpc = fromPulumi("@grpc/grpc-js") as typeof import("@grpc/grpc-js");

export const proto = {
  provider: require("@pulumi/pulumi/proto/provider_pb"),
  providerService: require("@pulumi/pulumi/proto/provider_grpc_pb"),
  plugin: require("@pulumi/pulumi/proto/plugin_pb"),
  status: require("@pulumi/pulumi/proto/status_pb"),
  struct: fromPulumi("google-protobuf/google/protobuf/struct_pb"),
  empty: fromPulumi("google-protobuf/google/protobuf/empty_pb"),
  any: fromPulumi("google-protobuf/google/protobuf/any_pb"),
};
