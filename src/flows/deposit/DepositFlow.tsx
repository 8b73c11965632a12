import { useEffect } from 'preact/hooks'
import { enDeposit } from '../../i18n/en-deposit'
import { addEnglish } from '../../i18n/i18n'
import { decimalMarkOf, localeAmount } from '../../lib/decimal'
import { systemClock } from '../../kernel/types'
import { AmountScreen } from '../../screens/deposit/AmountScreen'
import { QuoteScreen } from '../../screens/deposit/QuoteScreen'
import { ResultScreen } from '../../screens/deposit/ResultScreen'
import { TrackingScreen } from '../../screens/deposit/TrackingScreen'
import { WalletScreen } from '../../screens/deposit/WalletScreen'
import type { Services } from '../../services'
import { partnerStorage } from '../../storage/flowStore'
import { useFlowMachine } from '../../kernel/useFlowMachine'
import { defineFlow } from '../../kernel/defineFlow'
import { lazyPart, useLazyPart } from '../../kernel/lazyPart'
import { Notice } from '../../components/Notice'
import { t } from '../../i18n/i18n'
import { depositEvents } from './hostEvents'
import { type ByAddressEvent, type Context, type DepositEvent, type DepositState, initialState, stepOf, transition } from './machine'
import { depositSchemas } from '../../api/deposit'
import { errorSchemas } from '../../api/client'
import { FirstScreen } from '../../components/FirstScreen'
import { anyStored } from '../../storage/storedCheck'
import { fullPageHref } from '../../components/fullPage'
import { depositChecks, depositKeys, depositStore } from './persisted'
import { loadWalletCode } from './walletCode'

// This flow's English strings come with its chunk, not with the first load.
addEnglish(enDeposit)

// The I/O is fetched as the flow starts: the wallet list is drawn before it arrives (what it asks for meanwhile starts once it is here).
const depositEffects = lazyPart(() => import('./effects'))
// Paying by address: its screen and transition, fetched by way of the effects when wanted.
const byAddressPart = lazyPart(() => depositEffects.load().then((m) => m.byAddressPart.load()))

export default function DepositFlow(props: { services: Services; onStep: (step: number, of: number) => void }) {
  return (
    <FirstScreen
      checks={[depositChecks]}
      stored={() => anyStored(partnerStorage(props.services.config), depositKeys)}
      later={[depositSchemas, errorSchemas, props.services.limiter]}
    >
      {() => <Deposit {...props} />}
    </FirstScreen>
  )
}

function Deposit({ services, onStep }: { services: Services; onStep: (step: number, of: number) => void }) {
  const { config } = services
  const [state, dispatch] = useFlowMachine<DepositState, DepositEvent>(() => {
    const store = depositStore(partnerStorage(config))
    const ctx = {
      sourceDecimals: config.sources.map((s) => s.decimals),
      get decimalMark() {
        return decimalMarkOf(config.locale)
      },
      byAddress: (s: DepositState, e: ByAddressEvent, c: Context) => depositEffects.get()?.byAddress(s, e, c) ?? s,
    }
    return defineFlow({
      // Options are canonical (a dot); the field shows them with the locale's mark, as the buyer types.
      initial: initialState(store.load(), { amount: config.amount ? localeAmount(config.amount, decimalMarkOf(config.locale)) : '', source: 0 }),
      transition: (state, event) => transition(state, event, ctx),
      observe: (prev, next) => {
        for (const e of depositEvents(prev, next, config)) services.emit(e.name, e.payload as never)
      },
      effects: depositEffects,
      start: ({ createDepositEffects }, dispatch) =>
        createDepositEffects(
          { config, api: services.api, partner: services.partner, store, target: window, clock: systemClock, loadChainActions: loadWalletCode },
          dispatch,
        ),
    })
  }, [services])
  const { step, of } = stepOf(state)
  useEffect(() => onStep(step, of), [step, of])
  const amount = services.live.value.amount
  useEffect(() => {
    if (amount !== undefined) dispatch({ type: 'EDIT', amount: localeAmount(amount, decimalMarkOf(services.config.locale)) })
  }, [amount])

  const byAddress = state.tag === 'byAddress' || (state.tag === 'tracking' && state.phase === 'watching')
  // With no wallet in the page, the part comes too: on a phone it offers the wallet apps' browsers.
  const part = useLazyPart(byAddressPart, byAddress || (state.tag === 'wallets' && !state.wallets.length))
  if (byAddress) {
    if (part === 'failed') return <Notice tone="error">{t('app.loadFailed')}</Notice>
    return part ? <part.Screen state={state} dispatch={dispatch} config={config} /> : <p role="status">{t('app.loading')}</p>
  }
  switch (state.tag) {
    case 'discovering':
    case 'wallets':
    case 'connecting': {
      const full = fullPageHref()
      return (
        <WalletScreen
          state={state}
          dispatch={dispatch}
          fullPageHref={full}
          byAddress={() => depositEffects.load().then((m) => m.startByAddress(config, dispatch))}
          Apps={part && part !== 'failed' ? part.WalletApps : undefined}
        />
      )
    }
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
