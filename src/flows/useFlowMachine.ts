import { signal } from '@preact/signals'
import { useEffect, useMemo } from 'preact/hooks'

export type FlowParts<S, E> = {
  initial: S
  transition: (state: S, event: E) => S
  effects: (dispatch: (event: E) => void) => { run(state: S): void; dispose(): void }
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
      state.value = next
      effects.run(next)
    }
    return { state, dispatch, effects }
  }, deps)

  useEffect(() => {
    flow.effects.run(flow.state.value)
    return () => flow.effects.dispose()
  }, [flow])

  return [flow.state.value, flow.dispatch] as const
}
