/** What the Validation provider receives (after the class flattened `{ order }`): the declared inputs. */
export type { ValidationInputValues as ValidationInputs } from "./properties.generated.js";
