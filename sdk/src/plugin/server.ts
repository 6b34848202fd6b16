/**
 * The resource-provider gRPC service of `pulumi-resource-certreseller`.
 *
 * Every RPC is written here; from the Node SDK it takes only the protocol
 * (the generated messages and service definition in `@pulumi/pulumi/proto`)
 * and its gRPC library. Its own server (`@pulumi/pulumi/provider`) has no
 * CheckConfig or DiffConfig, ignores Configure's settings and hands
 * properties over with secrets still wrapped, so it is not used.
 *
 * The resource operations run the handler modules the dynamic resources
 * run, through the same entry (`provider/entry.ts`): journal, never-retry
 * and evidence rules are the same code. This file only translates: secrets
 * unwrapped on the way in and re-marked on the way out (wire.ts), the inputs
 * and outputs a TypeScript class computes in the program (served-resources.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { configure, handlerModule, invoke, settingsOf } from "../provider/entry.js";
import { ImportError, type Imported, type ProviderMethod } from "../provider/handlers.js";
import { createContext, runForCall, stopPurchases, type ProviderContext } from "../provider/context.js";
import { engineSink, flushEngineLog } from "../provider/engine-log.js";
import { EXPLICIT_PROVIDER_NEEDS_KEY, SECRET_SETTINGS, accountLine, checkConfig, configSource, diffConfig, isExplicitProvider } from "./configuration.js";
import { SETTING_SOURCES } from "../provider/config.js";
import { containsUnknown } from "../provider/unknown.js";
import { engineUnreachable } from "./engine-watch.js";
import { runInvoke } from "./invokes.js";
import { SERVED_RESOURCES, type ProgramSide, type ServedResource } from "./served-resources.js";
import { unscopedEntryStop } from "./unscoped-entry.js";
import { unwrap, wrap, type Props } from "./wire.js";
import { isInput, parseDeclared, type InputFailure } from "../schema/property.js";
import { grpc, proto } from "./protocol.js";

type Callback = (error: unknown, value?: unknown, trailer?: unknown) => void;
/** A unary call as @grpc/grpc-js hands it over: `cancelled` and its event when the engine cancelled it or its connection dropped. */
type Call = { request: any; cancelled?: boolean; on?(event: "cancelled", listener: () => void): unknown };

/** The package's version (sdk/package.json): GetPluginInfo reports it. */
export function pluginVersion(): string {
  return (require(path.join(__dirname, "..", "..", "package.json")) as { version: string }).version;
}

/** The package schema served by GetSchema: generated from the declarations (`npm run generate`), shipped with the package. */
function schemaText(): string {
  return fs.readFileSync(path.join(__dirname, "..", "..", "schema.json"), "utf8");
}

/** The type token of a request: newer engines send it; older ones only the URN (`…::<parent$>type::name`). */
function tokenOf(request: { getType?: () => string; getUrn(): string }): string {
  const fromRequest = request.getType?.();
  if (fromRequest) return fromRequest;
  const parts = request.getUrn().split("::");
  const qualified = parts[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

function servedFor(request: { getType?: () => string; getUrn(): string }): ServedResource {
  const token = tokenOf(request);
  const served = SERVED_RESOURCES.get(token);
  if (!served) throw new Error(`certreseller: unknown resource type ${JSON.stringify(token)} (this provider serves ${[...SERVED_RESOURCES.keys()].join(", ")})`);
  return served;
}

const toJs = (struct: any): Props => (struct ? (struct.toJavaScript() as Props) : {});
const toStruct = (props: Props) => proto.struct.Struct.fromJavaScript(props as never);

function omit(props: Props, names: readonly string[]): Props {
  if (names.length === 0) return props;
  const out = { ...props };
  for (const name of names) delete out[name];
  return out;
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The gRPC error of a failed operation. A handler's partial failure (a paid
 * order whose later step failed: an error with `id` and `properties`) is sent
 * as ErrorResourceInitFailed, so the engine keeps the resource in state.
 */
function operationError(error: unknown, present?: (props: Props) => Props): { code: number; message: string; metadata: unknown } {
  const e = error as { message?: string; id?: string; properties?: Props; reasons?: string[] };
  const status = new proto.status.Status();
  status.setCode(grpc.status.UNKNOWN);
  status.setMessage(e.message ?? String(error));
  const metadata = new grpc.Metadata();
  if (typeof e.id === "string" && e.id !== "") {
    const detail = new proto.provider.ErrorResourceInitFailed();
    detail.setId(e.id);
    detail.setProperties(toStruct(present ? present(e.properties ?? {}) : (e.properties ?? {})));
    detail.setReasonsList(e.reasons ?? [e.message ?? String(error)]);
    const any = new proto.any.Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, message: e.message ?? String(error), metadata };
}

/** Why nothing starts once the engine is gone. */
const ENGINE_GONE = "the Pulumi engine that started this provider plugin is gone (its `pulumi` process was killed), so nothing could record a result in state";

/** Why a cancelled call buys nothing (its CreateOrder is refused before sending). */
const CALL_CANCELLED =
  "the Pulumi engine cancelled this call (or its connection to the provider plugin dropped: its `pulumi` process was killed) before CreateOrder was sent, so nothing could record the purchase in state";

/** Why nothing starts, process-wide, once a cancelled call found no engine behind it. */
const ENGINE_DROPPED =
  "the Pulumi engine that started this provider plugin dropped its calls and no longer accepts connections (its `pulumi` process was killed), so nothing could record a result in state";

/** How long work in flight may run on after the engine is gone: one CreateOrder's timeout and its journal write, with room. */
export const IN_FLIGHT_GRACE_MS = 60_000;

/** The provider object the handlers' entry keys its settings by; one per process (one per provider). */
export class CertresellerProvider {
  readonly #self = {};
  /** Whether nothing listens at the engine's address any more (engine-watch.ts); asked when a call is cancelled. */
  readonly #engineUnreachable: () => Promise<boolean>;
  /** The check a cancelled call started, while it runs (several calls cancelled at once share it). */
  #probing: Promise<void> | undefined;
  readonly #inFlight = new Set<Promise<unknown>>();
  /** Lines said once per process (one process serves one provider): the account line, a setting's warning. */
  readonly #said = new Set<string>();
  /** Why nothing starts any more (the engine is gone); undefined while operations may start. */
  #stopped: string | undefined;

  /** `engineUnreachable`: how a cancelled call asks whether the engine is gone (default: its address, engine-watch.ts). */
  constructor(options: { engineUnreachable?: () => Promise<boolean> } = {}) {
    this.#engineUnreachable = options.engineUnreachable ?? (() => engineUnreachable());
  }

  /**
   * The engine that started this process is gone: no operation starts from
   * now on, no CreateOrder is sent (one in flight finishes and is
   * journaled), and what is in flight gets at most `graceMs` to finish.
   */
  async engineGone(graceMs = IN_FLIGHT_GRACE_MS): Promise<void> {
    this.#stopStarting(ENGINE_GONE);
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([Promise.allSettled([...this.#inFlight]), grace]);
    clearTimeout(timer);
    await flushEngineLog(1_000);
  }

  /** From now on no create, update or delete starts and no CreateOrder is sent, in this whole process. */
  #stopStarting(reason: string): void {
    this.#stopped ??= reason;
    stopPurchases(reason);
  }

  /**
   * A call was cancelled before it was answered: its own CreateOrder is
   * refused already (its signal). Whether to stop the whole process too: the
   * engine cancels one call and carries on only when it gives up on that
   * call (its deadline, a cancellation of its own), and then it still
   * listens; a killed engine drops every call at once and listens no more.
   * So one check on a new connection decides: refused means the engine is
   * gone now, not 10-15 s later when the health checks would say so; a
   * live engine (even a busy one) keeps this process buying. The health
   * checks still decide when the process exits.
   */
  #callCancelled(): void {
    if (this.#stopped !== undefined || this.#probing) return;
    this.#probing = this.#engineUnreachable()
      .then((unreachable) => {
        if (unreachable) this.#stopStarting(ENGINE_DROPPED);
      })
      .catch(() => undefined)
      .finally(() => {
        this.#probing = undefined;
      });
  }

  /** The provider's URN and where its key came from, from Configure. */
  #provider: { urn?: string; keyFrom: string } = { keyFrom: "not configured" };

  /** `message` on `urn`'s resource, once per process. */
  #once(urn: string, level: "info" | "warn", message: string): void {
    if (this.#said.has(message)) return;
    this.#said.add(message);
    const log = createContext({ type: "Order", settings: settingsOf(this.#self), sink: engineSink() }).log(urn);
    log[level](message);
  }

  /** What a resource's `programInputs` may use: the settings, and a warning said once. */
  #programSide(urn: string): ProgramSide {
    return { settings: settingsOf(this.#self), warn: (message) => this.#once(urn, "warn", message) };
  }

  /** A context for code that runs outside a handler module (imports, invokes). */
  context(type: string): ProviderContext {
    return createContext({ type, settings: settingsOf(this.#self), sink: engineSink() });
  }

  /** Runs a handler method for one call: the contexts built for it carry `signal`, the call's cancellation (see {@link #rpc}). */
  #run(served: ServedResource, method: ProviderMethod, args: unknown[], signal: AbortSignal): Promise<any> {
    const mutates = method === "create" || method === "update" || method === "delete";
    if (this.#stopped !== undefined && mutates) {
      return Promise.reject(new Error(`certreseller: ${this.#stopped}: this ${method} was not started`));
    }
    // No one waits for a cancelled call's answer.
    if (signal.aborted && mutates) return Promise.reject(new Error(`certreseller: ${CALL_CANCELLED}: this ${method} was not started`));
    const running = runForCall(signal, () => invoke(this.#self, handlerModule(served.handler)!, method, args));
    this.#inFlight.add(running);
    void running.catch(() => undefined).finally(() => this.#inFlight.delete(running));
    return running;
  }

  /**
   * Each RPC: run, answer, and never let a throw escape as an unhandled
   * rejection. The work gets the call's cancellation: aborted when the
   * engine cancels the call or its connection drops before the answer
   * (grpc-js also reports "cancelled" after every answer: those are not).
   */
  #rpc(work: (request: any, signal: AbortSignal) => Promise<unknown>, present?: (request: any) => (props: Props) => Props) {
    return (call: Call, callback: Callback) => {
      const cancellation = new AbortController();
      let answered = false;
      const cancelled = () => {
        if (answered || cancellation.signal.aborted) return;
        cancellation.abort(new Error(CALL_CANCELLED));
        this.#callCancelled();
      };
      call.on?.("cancelled", cancelled);
      if (call.cancelled) cancelled();
      work(call.request, cancellation.signal).then(
        (value) => {
          answered = true;
          callback(null, value);
        },
        (error) => {
          answered = true;
          const failure = operationError(error, present?.(call.request));
          callback(failure, null, failure.metadata);
        },
      );
    };
  }

  /** The service implementation for `server.addService`. */
  service(): Record<string, unknown> {
    return {
      getPluginInfo: this.#rpc(async () => {
        const info = new proto.plugin.PluginInfo();
        info.setVersion(pluginVersion());
        return info;
      }),
      getSchema: this.#rpc(async (request) => {
        if (request.getVersion() !== 0) throw new Error(`certreseller: unsupported schema version ${request.getVersion()}`);
        const response = new proto.provider.GetSchemaResponse();
        response.setSchema(schemaText());
        return response;
      }),
      checkConfig: this.#rpc(async (request) => {
        const news = unwrap(toJs(request.getNews()));
        const response = new proto.provider.CheckResponse();
        response.setInputs(toStruct(wrap(news.values, [...news.secret, ...SECRET_SETTINGS])));
        response.setFailuresList(checkConfig(news.values, request.getUrn()).map(toCheckFailure));
        return response;
      }),
      diffConfig: this.#rpc(async (request) => {
        const changed = diffConfig(unwrap(toJs(request.getOldInputs?.() ?? request.getOlds())).values, unwrap(toJs(request.getNews())).values);
        const response = new proto.provider.DiffResponse();
        response.setChanges(changed.length > 0 ? proto.provider.DiffResponse.DiffChanges.DIFF_SOME : proto.provider.DiffResponse.DiffChanges.DIFF_NONE);
        response.setDiffsList(changed);
        return response;
      }),
      configure: this.#rpc(async (request) => {
        const args = unwrap(toJs(request.getArgs())).values;
        const variables = Object.fromEntries(request.getVariablesMap().entries()) as Record<string, string>;
        const urn: string | undefined = request.getUrn?.() || undefined;
        const source = configSource(args, variables);
        const ownKey = source.get(SETTING_SOURCES.apiKey.config);
        // An explicit provider never buys with the environment's key (CheckConfig refuses it first; this holds without it).
        if (isExplicitProvider(urn) && !ownKey) throw new Error(`certreseller: ${EXPLICIT_PROVIDER_NEEDS_KEY}`);
        configure(this.#self, source); // throws on a malformed setting, naming it
        const keyFrom = ownKey ? (isExplicitProvider(urn) ? "its apiKey" : SETTING_SOURCES.apiKey.config) : `${SETTING_SOURCES.apiKey.env} from the environment`;
        this.#provider = { urn, keyFrom };
        const response = new proto.provider.ConfigureResponse();
        response.setAcceptsecrets(true);
        response.setSupportspreview(false);
        response.setAcceptresources(false);
        response.setAcceptoutputs(false);
        return response;
      }),
      check: this.#rpc(async (request, signal) => {
        const served = servedFor(request);
        const news = unwrap(toJs(request.getNews()));
        const olds = unwrap(toJs(request.getOlds()));
        const urn: string = request.getUrn();
        if (served.buys) this.#once(urn, "info", accountLine(this.#provider.urn, settingsOf(this.#self).apiKey, this.#provider.keyFrom));
        const handlerNews = omit(served.programInputs(urn, news.values, this.#programSide(urn)), served.presentationInputs);
        if (served.buys) {
          const stop = await unscopedEntryStop(settingsOf(this.#self), urn, String(handlerNews.journalScope), Object.keys(olds.values).length > 0);
          if (stop) throw new Error(stop);
        }
        const result = await this.#run(served, "check", [omit(olds.values, served.presentationInputs), handlerNews], signal);
        const kept = checkPresentationInputs(served, news.values);
        const response = new proto.provider.CheckResponse();
        response.setInputs(toStruct(wrap({ ...(result?.inputs ?? handlerNews), ...kept.values }, [...news.secret, ...secretInputs(served)])));
        response.setFailuresList([...(result?.failures ?? []), ...kept.failures].map(toCheckFailure));
        return response;
      }),
      diff: this.#rpc(async (request, signal) => {
        const served = servedFor(request);
        const olds = unwrap(toJs(request.getOlds())).values;
        const oldInputs = unwrap(toJs(request.getOldInputs?.())).values;
        const news = unwrap(toJs(request.getNews())).values;
        const result = (await this.#run(served, "diff", [request.getId(), served.stored(olds), omit(news, served.presentationInputs)], signal)) ?? {};
        const presentation = served.presentationInputs.filter((n) => !sameValue(oldInputs[n], news[n]));
        const replaces: string[] = result.replaces ?? [];
        // Declared inputs only: what the plugin and `check` add (journalKey, quotedPrice, ...) is not what the program wrote.
        const changed = Object.keys(news).filter((k) => isDeclaredInput(served, k) && !sameValue(olds[k], news[k]));
        const response = new proto.provider.DiffResponse();
        const Changes = proto.provider.DiffResponse.DiffChanges;
        const changes = result.changes === true || presentation.length > 0 ? Changes.DIFF_SOME : result.changes === false ? Changes.DIFF_NONE : Changes.DIFF_UNKNOWN;
        response.setChanges(changes);
        response.setReplacesList(replaces);
        response.setDeletebeforereplace(result.deleteBeforeReplace === true);
        if (changes === Changes.DIFF_SOME) response.setDiffsList([...new Set([...replaces, ...presentation, ...changed])]);
        return response;
      }),
      create: this.#rpc(
        async (request, signal) => {
          const served = servedFor(request);
          const inputs = unwrap(toJs(request.getProperties()));
          const result = await this.#run(served, "create", [omit(inputs.values, served.presentationInputs)], signal);
          const response = new proto.provider.CreateResponse();
          response.setId(result.id);
          response.setProperties(toStruct(this.#answer(served, result.outs ?? {}, inputs.values, inputs.secret)));
          return response;
        },
        (request) => this.#presentPartial(request, "getProperties"),
      ),
      read: this.#rpc(async (request, signal) => {
        const served = servedFor(request);
        const props = unwrap(toJs(request.getProperties()));
        const inputs = unwrap(toJs(request.getInputs?.()));
        const response = new proto.provider.ReadResponse();
        if (Object.keys(props.values).length === 0) {
          const imported = await this.#import(served, request.getUrn(), request.getId(), signal);
          response.setId(imported.id);
          response.setProperties(toStruct(this.#answer(served, imported.outputs, imported.inputs, new Set())));
          response.setInputs(toStruct(wrap(imported.inputs, secretInputs(served))));
          return response;
        }
        const result = (await this.#run(served, "read", [request.getId(), served.stored(props.values)], signal)) ?? {};
        if (!result.id || !result.props) return response; // gone: an empty id tells the engine to drop it
        response.setId(result.id);
        response.setProperties(toStruct(this.#answer(served, result.props, inputs.values, props.secret)));
        response.setInputs(toStruct(wrap(inputs.values, [...inputs.secret, ...secretInputs(served)])));
        return response;
      }),
      update: this.#rpc(
        async (request, signal) => {
          const served = servedFor(request);
          const olds = unwrap(toJs(request.getOlds()));
          const news = unwrap(toJs(request.getNews()));
          const result = await this.#run(served, "update", [request.getId(), served.stored(olds.values), omit(news.values, served.presentationInputs)], signal);
          const response = new proto.provider.UpdateResponse();
          response.setProperties(toStruct(this.#answer(served, result?.outs ?? served.stored(olds.values), news.values, news.secret)));
          return response;
        },
        (request) => this.#presentPartial(request, "getNews"),
      ),
      delete: this.#rpc(async (request, signal) => {
        const served = servedFor(request);
        const props = unwrap(toJs(request.getProperties()));
        await this.#run(served, "delete", [request.getId(), served.stored(props.values)], signal);
        return new proto.empty.Empty();
      }),
      invoke: this.#rpc(async (request) => {
        const args = unwrap(toJs(request.getArgs())).values;
        const response = new proto.provider.InvokeResponse();
        try {
          response.setReturn(toStruct(await runInvoke(this.context("function"), request.getTok(), args)));
        } finally {
          await flushEngineLog();
        }
        return response;
      }),
      cancel: this.#rpc(async () => {
        // The engine is shutting down: let operations in flight finish their journal writes rather than cut them.
        await Promise.allSettled([...this.#inFlight]);
        return new proto.empty.Empty();
      }),
      attach: this.#rpc(async () => new proto.empty.Empty()),
    };
  }

  /** Stored outputs as the schema declares them, secrets marked. */
  #answer(served: ServedResource, stored: Props, inputs: Props, secretIn: ReadonlySet<string>): Props {
    const presented = served.present(stored, inputs);
    return wrap(presented, [...served.secretOutputs, ...[...secretIn].filter((k) => k in presented)]);
  }

  /** A partial failure's properties, presented like a success's (the create's inputs give the presentation inputs). */
  #presentPartial(request: any, inputsGetter: "getProperties" | "getNews"): (props: Props) => Props {
    return (props) => {
      try {
        const served = servedFor(request);
        const inputs = unwrap(toJs(request[inputsGetter]())).values;
        return this.#answer(served, props, inputs, new Set());
      } catch {
        return props;
      }
    };
  }

  async #import(served: ServedResource, urn: string, id: string, signal: AbortSignal): Promise<Imported> {
    // The resource's own check on what the import found, with what the program would add.
    const check = async (declared: Props): Promise<Props> => {
      const result = await this.#run(served, "check", [{}, served.programInputs(urn, declared, this.#programSide(urn))], signal);
      const failures: { property: string; reason: string }[] = result?.failures ?? [];
      if (failures.length > 0) throw new ImportError(`cannot import ${served.declaration.name.toLowerCase()} ${id}: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
      return result.inputs as Props;
    };
    return (await this.#run(served, "import", [id, check], signal)) as Imported;
  }
}

/** The presentation inputs given, each by its declaration as the shared check reads one (the handlers never see them, so their check does not). */
function checkPresentationInputs(served: ServedResource, news: Props): { values: Props; failures: InputFailure[] } {
  const values: Props = {};
  const failures: InputFailure[] = [];
  for (const name of served.presentationInputs.filter((n) => n in news)) {
    const value = news[name];
    const declaration = served.declaration.properties[name];
    const parsed = declaration === undefined || value === undefined || value === null || containsUnknown(value) ? { value } : parseDeclared(declaration, value, name);
    if (parsed.failures) failures.push(...parsed.failures);
    else values[name] = parsed.value;
  }
  return { values, failures };
}

function isDeclaredInput(served: ServedResource, name: string): boolean {
  const declared = Object.hasOwn(served.declaration.properties, name) ? served.declaration.properties[name] : undefined;
  return declared !== undefined && isInput(declared);
}

function secretInputs(served: ServedResource): string[] {
  return Object.entries(served.declaration.properties)
    .filter(([, p]) => p.secret && p.input !== false)
    .map(([name]) => name);
}

function toCheckFailure(failure: { property: string; reason: string }) {
  const out = new proto.provider.CheckFailure();
  out.setProperty(failure.property);
  out.setReason(failure.reason);
  return out;
}
