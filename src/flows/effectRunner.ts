// Runs at most one effect per stage of a flow. An effect is keyed: a state update within the
// same stage keeps it running; a new key cancels it (its `alive()` turns false) and starts the next.
export type Effect = { key: string; start: (alive: () => boolean) => (() => void) | void }

export function createEffectRunner<S>(effectOf: (state: S) => Effect | undefined) {
  let currentKey = ''
  let cleanup: (() => void) | void
  let generation = 0
  return {
    run(state: S) {
      const effect = effectOf(state)
      const key = effect?.key ?? ''
      if (key === currentKey) return
      cleanup?.()
      cleanup = undefined
      currentKey = key
      if (!effect) return
      const mine = ++generation
      cleanup = effect.start(() => generation === mine)
    },
    dispose() {
      cleanup?.()
      cleanup = undefined
      currentKey = ''
      generation++
    },
  }
}
