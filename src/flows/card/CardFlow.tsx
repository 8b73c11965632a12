import { useEffect } from 'preact/hooks'
import { returnToThisLink } from '../../config/returnLink'
import { enCard } from '../../i18n/en-card'
import { addEnglish, t } from '../../i18n/i18n'
import { decimalMarkOf, localeAmount } from '../../lib/decimal'
import { systemClock } from '../../kernel/types'
import { CardFormScreen } from '../../screens/card/CardFormScreen'
import { Notice } from '../../components/Notice'
import { lazyObserver, lazyPart, useLazyPart } from '../../kernel/lazyPart'
import { defineFlow } from '../../kernel/defineFlow'
import type { Services } from '../../services'
import { partnerStorage } from '../../storage/flowStore'
import { useFlowMachine } from '../../kernel/useFlowMachine'
import { type CardEvent, type CardState, initialState, stepOf, transition } from './machine'
import { cardSchemas } from '../../api/card'
import { cardRateSchemas } from '../../api/cardRate'
import { errorSchemas } from '../../api/client'
import { FirstScreen } from '../../components/FirstScreen'
import { anyStored } from '../../storage/storedCheck'
import { cardChecks, cardKeys, cardStore } from './persisted'

const laterScreens = lazyPart(() => import('../../screens/card/LaterScreens'))
// The I/O (and what the host page hears) is fetched as the flow starts: the form is usable before
// it arrives (a quote asked for meanwhile is sent once it is here).
const cardEffects = lazyPart(() => import('./effects'))

// This flow's English strings come with its chunk, not with the first load.
addEnglish(enCard)

export default function CardFlow(props: { services: Services; onStep: (step: number, of: number) => void }) {
  return (
    <FirstScreen
      checks={[cardChecks]}
      stored={() => anyStored(partnerStorage(props.services.config), cardKeys)}
      later={[cardSchemas, cardRateSchemas, errorSchemas, props.services.limiter]}
    >
      {() => <Card {...props} />}
    </FirstScreen>
  )
}

function Card({ services, onStep }: { services: Services; onStep: (step: number, of: number) => void }) {
  const { config } = services
  const [state, dispatch] = useFlowMachine<CardState, CardEvent>(() => {
    const store = cardStore(partnerStorage(config))
    const ctx = {
      get decimalMark() {
        return decimalMarkOf(config.locale)
      },
    }
    // Options carry amounts with a dot; the field shows them as the buyer types in this locale.
    const form = {
      currency: config.fiatCurrencies[0],
      amount: config.amount ? localeAmount(config.amount, ctx.decimalMark) : '',
      address: config.walletAddress ?? '',
      asset: config.cardCrypto,
    }
    const framed = window.self !== window.top
    return defineFlow({
      initial: initialState(form, store.load()),
      transition: (state, event) => transition(state, event, ctx),
      // What the host page hears comes with the effects (none of it is needed to show the form).
      observe: lazyObserver(cardEffects, ({ cardEvents }) => (prev, next) => {
        for (const e of cardEvents(prev, next)) services.emit(e.name, e.payload as never)
      }),
      // The partner's door is the widget's (services), fetched with the effects.
      effects: lazyPart(() => Promise.all([cardEffects.load(), services.partner()]).then(([effects, http]) => ({ ...effects, http }))),
      start: ({ createCardEffects, http }, dispatch) =>
        createCardEffects(
          {
            config,
            api: services.api,
            http,
            store,
            clock: systemClock,
            // This link as it came, without its partnerToken (this tab keeps it: the signature holds again on the way back).
            returnUrl: () => returnToThisLink(location.href, 'card'),
            // Framed, the buyer's click on the link opens the page (see CardRedirectScreen).
            navigate: (url) => framed || location.assign(url),
          },
          dispatch,
        ),
    })
  }, [services])
  const { step, of } = stepOf(state)
  useEffect(() => onStep(step, of), [step, of])
  const { amount, locale } = services.live.value
  useEffect(() => {
    if (amount !== undefined) dispatch({ type: 'EDIT', amount: localeAmount(amount, decimalMarkOf(locale)) })
  }, [amount])

  // Fetched from the first screen on (a resumed purchase asks for them at once).
  const later = useLazyPart(laterScreens, true)
  if (state.tag === 'form' || state.tag === 'quoting') return <CardFormScreen state={state} dispatch={dispatch} config={config} />
  if (later === 'failed') return <Notice tone="error">{t('app.loadFailed')}</Notice>
  if (!later) return <p role="status">{t('app.loading')}</p>
  const { CardQuoteScreen, CardRedirectScreen, CardStatusScreen } = later
  switch (state.tag) {
    case 'quote':
      return <CardQuoteScreen state={state} dispatch={dispatch} config={config} />
    case 'redirect':
      return <CardRedirectScreen state={state} dispatch={dispatch} />
    case 'tracking':
    case 'result':
      return <CardStatusScreen state={state} dispatch={dispatch} config={config} />
  }
}
