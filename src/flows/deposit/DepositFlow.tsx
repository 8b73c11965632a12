import { signal } from '@preact/signals'
import { useEffect, useMemo } from 'preact/hooks'
import type { Services } from '../../services'
import { decimalMarkOf } from '../../lib/decimal'
import { AmountScreen } from '../../screens/deposit/AmountScreen'
import { QuoteScreen } from '../../screens/deposit/QuoteScreen'
import { ResultScreen } from '../../screens/deposit/ResultScreen'
import { TrackingScreen } from '../../screens/deposit/TrackingScreen'
import { WalletScreen } from '../../screens/deposit/WalletScreen'
import { systemClock } from '../../rateLimit/rateLimiter'
import { safeLocalStorage } from '../../storage/flowStore'
import { createDepositEffects } from './effects'
import { type DepositEvent, initialState, stepOf, transition } from './machine'
import { depositStore } from './persisted'

export default function DepositFlow({ services, onStep }: { services: Services; onStep: (step: number, of: number) => void }) {
  const { config } = services
  const flow = useMemo(() => {
    const store = depositStore(safeLocalStorage())
    const ctx = { sourceDecimals: config.sources.map((s) => s.decimals), decimalMark: decimalMarkOf(config.locale) }
    const state = signal(initialState(store.load()))
    const effects = createDepositEffects(
      {
        config,
        api: services.api,
        store,
        target: window,
        clock: systemClock,
        loadChainActions: () => import('../../wallet/chainActions'),
      },
      (event) => dispatch(event),
    )
    function dispatch(event: DepositEvent) {
      const next = transition(state.value, event, ctx)
      if (next === state.value) return
      state.value = next
      effects.run(next)
    }
    return { state, dispatch, effects }
  }, [services])

  useEffect(() => {
    flow.effects.run(flow.state.value)
    return () => flow.effects.dispose()
  }, [flow])

  const state = flow.state.value
  const dispatch = flow.dispatch
  useEffect(() => onStep(stepOf(state), 4), [stepOf(state)])

  switch (state.tag) {
    case 'discovering':
    case 'wallets':
    case 'connecting':
      return <WalletScreen state={state} dispatch={dispatch} />
    case 'form':
    case 'quoting':
      return <AmountScreen state={state} dispatch={dispatch} config={config} />
    case 'quote':
      return <QuoteScreen state={state} dispatch={dispatch} config={config} />
    case 'tracking':
      return <TrackingScreen state={state} dispatch={dispatch} config={config} />
    case 'result':
      return <ResultScreen state={state} dispatch={dispatch} config={config} />
  }
}
