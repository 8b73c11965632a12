// Runs a flow's effects. Each effect is keyed: a state update that keeps the key keeps the effect
// running; a key that goes away cancels it (its `alive()` turns false and its signal aborts, which
// stops I/O that takes one) and a new key starts one. A state may ask for several at once
// (following a transfer and holding the tab's lock on it).
export type Effect = { key: string; start: (alive: () => boolean, signal: AbortSignal) => (() => void) | void }

export function createEffectRunner<S>(effectOf: (state: S) => Effect | Array<Effect | undefined> | undefined) {
  const running = new Map<string, { cleanup: (() => void) | void; stopped: AbortController }>()
  // Once disposed (the widget unmounted), an answer that arrives late starts nothing new.
  let disposed = false
  const stop = (key: string) => {
    const entry = running.get(key)
    running.delete(key)
    entry?.stopped.abort()
    entry?.cleanup?.()
  }
  return {
    run(state: S) {
      if (disposed) return
      const wanted = ([] as Array<Effect | undefined>).concat(effectOf(state) ?? []).filter((e): e is Effect => !!e)
      const keys = new Set(wanted.map((e) => e.key))
      for (const key of [...running.keys()]) if (!keys.has(key)) stop(key)
      for (const effect of wanted) {
        if (running.has(effect.key)) continue
        const entry: { cleanup: (() => void) | void; stopped: AbortController } = { cleanup: undefined, stopped: new AbortController() }
        running.set(effect.key, entry)
        const { signal } = entry.stopped
        entry.cleanup = effect.start(() => !signal.aborted, signal)
      }
    },
    dispose() {
      disposed = true
      for (const key of [...running.keys()]) stop(key)
    },
  }
}
