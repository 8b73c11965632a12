import { useEffect, useState } from 'preact/hooks'

/** A part of the flow fetched on first use (and kept): the first screen does not wait for it. */
export type LazyPart<T> = { get(): T | undefined; load(): Promise<T> }

export function lazyPart<T>(load: () => Promise<T>): LazyPart<T> {
  let value: T | undefined
  let pending: Promise<T> | undefined
  return {
    get: () => value,
    load: () =>
      (pending ??= load().then(
        (v) => (value = v),
        (error) => {
          // A failed fetch (offline) is tried again on the next use.
          pending = undefined
          throw error
        },
      )),
  }
}

/** The part once here; `'failed'` if it could not be fetched. Starts fetching while `wanted`. */
export function useLazyPart<T>(part: LazyPart<T>, wanted: boolean): T | undefined | 'failed' {
  const [, arrived] = useState(0)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    if (!wanted || part.get()) return
    let live = true
    part.load().then(
      () => live && arrived((n) => n + 1),
      () => live && setFailed(true),
    )
    return () => {
      live = false
    }
  }, [wanted])
  return part.get() ?? (failed ? 'failed' : undefined)
}
