import { fileGoldenStore, type GoldenStore } from '../store/golden-store.js';

let active: GoldenStore = fileGoldenStore;

/**
 * Replaces the store the matchers read and write goldens through (the file system by default), e.g.
 * with an in-memory one in a test of a test. Returns the previous store, to put back.
 */
export function setGoldenStore(store: GoldenStore): GoldenStore {
  const previous = active;
  active = store;
  return previous;
}

/** The store the matchers use now. */
export function getGoldenStore(): GoldenStore {
  return active;
}
