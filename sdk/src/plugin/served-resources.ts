/**
 * What the provider plugin serves, by type token: each resource of the
 * registry with a handler module (the one the dynamic resources also run),
 * its declaration (which outputs are secret, which inputs change only the
 * presented outputs), and its presentation (`resources/<name>/presentation.ts`):
 * the inputs its class adds in the program and the outputs its class computes
 * from the stored ones. The plugin answers with the presented outputs and
 * takes them off again before the handlers see old outputs, so the handlers
 * read the same state shape through either front end.
 */
import type { ResourceHandlerName } from "../provider/entry.js";
import { RESOURCES } from "../registry.js";
import type { ProgramSide } from "../resources/shared/presentation.js";
import { entries, isOutput, presentationInputs, type ResourceDeclaration } from "../schema/property.js";
import type { Props } from "./wire.js";

export type { ProgramSide } from "../resources/shared/presentation.js";

export interface ServedResource {
  readonly declaration: ResourceDeclaration;
  readonly handler: ResourceHandlerName;
  /** It buys (see the registry): its check names the account and stops on a purchase journaled under no organisation. */
  readonly buys: boolean;
  /** Declared-secret outputs: wrapped as secrets in every answer. */
  readonly secretOutputs: readonly string[];
  /** Inputs the program-side class would add, from the request's URN and the provider's settings (`warn`: a line for the user). */
  programInputs(urn: string, inputs: Props, provider: ProgramSide): Props;
  /** Stored outputs plus what the class computes from them (`inputs`: the resource's current inputs). */
  present(stored: Props, inputs: Props): Props;
  /** The presented outputs back in their stored form, for the handlers. */
  stored(outputs: Props): Props;
  /** Inputs the handlers never see: they change only presented outputs. */
  readonly presentationInputs: readonly string[];
}

const same = (props: Props) => props;

export const SERVED_RESOURCES: ReadonlyMap<string, ServedResource> = new Map(
  RESOURCES.flatMap(({ declaration, handler, presentation = {}, buys = false }): [string, ServedResource][] =>
    handler === undefined
      ? []
      : [
          [
            declaration.token,
            {
              declaration,
              handler,
              buys,
              secretOutputs: entries(declaration.properties)
                .filter(([, p]) => p.secret && isOutput(p))
                .map(([name]) => name),
              programInputs: presentation.programInputs ?? ((_urn, inputs) => inputs),
              present: presentation.present ?? same,
              stored: presentation.stored ?? same,
              presentationInputs: presentationInputs(declaration.properties),
            },
          ],
        ],
  ),
);
