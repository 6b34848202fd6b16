/** Nothing to undo at the service: the records are published by other resources. */
export async function remove(): Promise<void> {}
