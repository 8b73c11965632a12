import { useEffect, useState } from 'preact/hooks'

/**
 * A part of the flow fetched on first use (and kept): the first screen does not wait for it.
 * `arrived()` resolves once any load of it succeeded (it never rejects: a failed fetch waits on).
 */
export type LazyPart<T> = { get(): T | undefined; load(): Promise<T>; arrived(): Promise<T> }

export function lazyPart<T>(load: () => Promise<T>): LazyPart<T> {
  let value: T | undefined
  let pending: Promise<T> | undefined
  let arrive!: (value: T) => void
  const arrival = new Promise<T>((resolve) => (arrive = resolve))
  return {
    get: () => value,
    arrived: () => arrival,
    load: () =>
      (pending ??= load().then(
        (v) => {
          value = v
          arrive(v)
          return v
        },
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

type Runner<S> = { run(state: S): void; dispose(): void }

/**
 * A flow's effects whose code is fetched when the flow starts, not with its first screen: until it
 * is here the latest state waits, and then runs (effects are chosen from the state alone, so the
 * latest state is all they need). A fetch that failed is tried again on the next state.
 */
export function lazyEffects<S, M>(part: LazyPart<M>, create: (module: M) => Runner<S>): Runner<S> {
  let runner: Runner<S> | undefined
  let latest: { state: S } | undefined
  let disposed = false
  const arrive = () =>
    part.load().then(
      (module) => {
        if (disposed || runner) return
        runner = create(module)
        if (latest) runner.run(latest.state)
      },
      () => {},
    )
  void arrive()
  return {
    run(state) {
      if (runner) return runner.run(state)
      latest = { state }
      if (!part.get()) void arrive()
    },
    dispose() {
      disposed = true
      runner?.dispose()
    },
  }
}

/**
 * A flow's observer (what the host page hears) whose code comes with its effects, not with the
 * first screen: the changes seen before it is here are told once it is, in order; a fetch that
 * failed is tried again on the next change.
 */
export function lazyObserver<S, M>(part: LazyPart<M>, pick: (module: M) => (prev: S, next: S) => void): (prev: S, next: S) => void {
  const held: Array<[S, S]> = []
  let loading = false
  const flush = () => {
    if (loading) return
    loading = true
    part.load().then(
      (module) => {
        loading = false
        const observe = pick(module)
        for (const [prev, next] of held.splice(0)) observe(prev, next)
      },
      () => (loading = false),
    )
  }
  return (prev, next) => {
    const module = part.get()
    if (module && !held.length) return pick(module)(prev, next)
    held.push([prev, next])
    flush()
  }
}
