// A flow's pure transition and its effects run together, as useFlowMachine runs them: each event
// the effects dispatch is recorded, goes through the transition, and the effects see the new state.
type Effects<S> = { run(state: S): void; dispose(): void }

export function driveFlow<S, E extends { type: string }>(
  start: S,
  transition: (state: S, event: E) => S,
  effects: (dispatch: (event: E) => void) => Effects<S>,
) {
  const events: E[] = []
  let state = start
  const runner = effects((event) => dispatch(event))
  function dispatch(event: E) {
    events.push(event)
    const next = transition(state, event)
    if (next === state) return
    state = next
    runner.run(state)
  }
  runner.run(state)
  return {
    events,
    dispatch,
    state: () => state,
    types: () => events.map((e) => e.type),
    last: <T extends E['type']>(type: T) => events.filter((e): e is Extract<E, { type: T }> => e.type === type).at(-1),
    dispose: () => runner.dispose(),
  }
}
