import { signal } from '@preact/signals'
import { useEffect, useLayoutEffect, useMemo } from 'preact/hooks'

export type FlowParts<S, E> = {
  initial: S
  transition: (state: S, event: E) => S
  effects: (dispatch: (event: E) => void) => { run(state: S): void; dispose(): void }
  /** Sees every change of state (to tell the embedding what happened). */
  observe?: (prev: S, next: S) => void
}

/** A flow's machine in a signal: events go through the pure transition, then the effects runner. */
export function useFlowMachine<S, E>(create: () => FlowParts<S, E>, deps: unknown[]) {
  const flow = useMemo(() => {
    const parts = create()
    const state = signal(parts.initial)
    const effects = parts.effects((event) => dispatch(event))
    function dispatch(event: E) {
      const next = parts.transition(state.value, event)
      if (next === state.value) return
      const prev = state.value
      state.value = next
      parts.observe?.(prev, next)
      effects.run(next)
    }
    return { state, dispatch, effects, observe: parts.observe }
  }, deps)

  useEffect(() => {
    // The first screen is news too: seen as a change from a state no flow has.
    flow.observe?.({ tag: 'start' } as never, flow.state.value)
    flow.effects.run(flow.state.value)
  }, [flow])
  // Disposed in the commit itself, as the widget unmounts: Preact 11 runs a useEffect's cleanup
  // after paint (up to 35 ms later), and a status or chain poll due in between would still go out.
  useLayoutEffect(() => () => flow.effects.dispose(), [flow])

  return [flow.state.value, flow.dispatch] as const
}
