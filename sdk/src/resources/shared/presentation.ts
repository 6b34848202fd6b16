/**
 * What a resource's TypeScript class does in the program that the provider
 * plugin must do itself, declared once per resource (its `presentation.ts`)
 * and called by both: the inputs the program adds, and the outputs computed
 * from the stored ones.
 */
import type { ProviderSettings } from "../../provider/config.js";

/** Inputs or outputs as plain records. */
export type Props = Record<string, unknown>;

/** What `programInputs` may use besides the request. */
export interface ProgramSide {
  readonly settings: ProviderSettings;
  /** A line for the user, said once. */
  warn(message: string): void;
}

/** A resource's presentation for the plugin (each part absent: nothing to add, stored as shown). */
export interface Presentation {
  /** The inputs with what the class adds in the program, from the request's URN and the provider's settings. */
  programInputs?(urn: string, inputs: Props, side: ProgramSide): Props;
  /** Stored outputs plus what the class computes from them (`inputs`: the resource's current inputs). */
  present?(stored: Props, inputs: Props): Props;
  /** The presented outputs back in their stored form, for the handlers. */
  stored?(outputs: Props): Props;
}
