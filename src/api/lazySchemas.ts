// The contract's schemas (and zod with them) are fetched after the first screen, not with it: a
// module of schemas is loaded on the first answer that needs it, or earlier by `preload` (each flow
// calls it once its first screen is up). Every answer is still parsed with its schema.

export type LazySchemas<M> = {
  /** Starts fetching the module; a failed fetch is tried again by the next use. */
  preload(): void
  /** Resolves once the module is here. */
  ready(): Promise<unknown>
  /** A loader of one schema of the module, for `readResponse`. */
  schema<K extends keyof M>(key: K): () => Promise<M[K]>
}

export function lazySchemas<M>(load: () => Promise<M>): LazySchemas<M> {
  let pending: Promise<M> | undefined
  const get = (): Promise<M> =>
    (pending ??= load().catch((error) => {
      pending = undefined
      throw error
    }))
  return {
    preload: () => void get().catch(() => {}),
    ready: get,
    schema: (key) => () => get().then((module) => module[key]),
  }
}
