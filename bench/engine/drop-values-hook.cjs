// Preloaded (NODE_OPTIONS=--require) into the dynamic-provider host of the
// dynamic path when BENCH_DROP_VALUES is set: an experiment, never a
// setting. It drops the named values from what the resources store (check's
// inputs, create's outputs), so a run shows what `up`, `preview` and
// `destroy` would gain if the provider stored fewer values. The values are
// still there for the handlers: create gets check's full inputs back. What
// is dropped is gone from state, so refresh, update and destroy of such a
// stack are not what the provider does; the bench only times them.
//
// BENCH_DROP_VALUES=Order.installmentNo,Certificate.accountId,...
// (`Type.name`: a top-level input or output of that resource type.)
"use strict";
const path = require("node:path");

/** JSON with sorted keys: the engine hands create check's inputs back in its own key order. */
const canonical = (value) =>
  JSON.stringify(value, (_k, v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));

/** This package's handler module of a resource folder, as the host in this folder resolves it; undefined elsewhere. */
function handlerFile(folder) {
  try {
    return require.resolve(`pulumi-certreseller/dist/resources/${folder}/handlers.js`, { paths: [process.cwd()] });
  } catch {
    return undefined;
  }
}

const spec = process.env.BENCH_DROP_VALUES;
if (spec) {
  const byType = new Map();
  for (const item of spec.split(",").map((s) => s.trim()).filter(Boolean)) {
    const [type, name] = item.split(".");
    if (!type || !name) throw new Error(`BENCH_DROP_VALUES: expected Type.name items, got ${JSON.stringify(item)}`);
    byType.set(type, [...(byType.get(type) ?? []), name]);
  }
  let patched = 0;
  const folders = { Order: "order", Validation: "validation", Certificate: "certificate" };
  for (const [type, names] of byType) {
    const folder = folders[type];
    if (!folder) throw new Error(`BENCH_DROP_VALUES: no resource type ${type}; one of ${Object.keys(folders).join(", ")}`);
    const file = handlerFile(folder);
    if (!file) continue; // a Node process that does not serve this package's resources
    const { handlers } = require(file);
    patched++;
    // The full inputs of each check, by the stored (reduced) form the engine hands back to create.
    const full = new Map();
    const without = (values) => Object.fromEntries(Object.entries(values).filter(([k]) => !names.includes(k)));
    const { check, create } = handlers;
    handlers.check = async (...args) => {
      const result = await check(...args);
      if (!result || !result.inputs) return result;
      const stored = without(result.inputs);
      full.set(canonical(stored), result.inputs);
      return { ...result, inputs: stored };
    };
    handlers.create = async (ctx, inputs) => {
      const result = await create(ctx, full.get(canonical(inputs)) ?? inputs);
      return result && result.outs ? { ...result, outs: without(result.outs) } : result;
    };
  }
  if (patched > 0) process.stderr.write(`[bench] ${path.basename(__filename)}: not storing ${spec}\n`);
}
