// How every flow is put together for useFlowMachine: its machine (first state, pure transition),
// what the host page hears, and its effects, fetched one way: as the flow starts, never with its
// first screen (the latest state waits for them, kernel/lazyPart.ts lazyEffects).
import { type LazyPart, lazyEffects } from './lazyPart'
import type { FlowParts } from './useFlowMachine'

type Runner<S> = { run(state: S): void; dispose(): void }

export type FlowSpec<S, E, M> = {
  initial: S
  transition: (state: S, event: E) => S
  /** Sees every change of state (to tell the embedding what happened). */
  observe?: (prev: S, next: S) => void
  /** The flow's effects module and what they need with it (the partner's door: services.partner), fetched as the flow starts. */
  effects: LazyPart<M>
  /** The flow's effects runner, once `effects` is here. */
  start: (module: M, dispatch: (event: E) => void) => Runner<S>
}

export const defineFlow = <S, E, M>(spec: FlowSpec<S, E, M>): FlowParts<S, E> => ({
  ...spec,
  effects: (dispatch) => lazyEffects(spec.effects, (module) => spec.start(module, dispatch)),
})
