/** Nothing to undo: the order (and its refund) belongs to the Order resource. */
export async function remove(): Promise<void> {}
