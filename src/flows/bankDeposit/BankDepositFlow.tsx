import { useEffect, useRef } from 'preact/hooks'
import { createPartnerHttp } from '../../api/partnerHttp'
import type { Flow } from '../../config/config'
import { returnToThisLink } from '../../config/link'
import { enBankDepositAmount } from '../../i18n/bankDeposit/en-amount'
import { enLimits } from '../../i18n/bankDeposit/en-limits'
import { addEnglish } from '../../i18n/i18n'
import { identityEffect } from '../../identity/effects'
import { identityStart, useIdentitySync } from '../../identity/start'
import { isIdentityState } from '../../identity/machine'
import { systemClock } from '../../kernel/types'
import { useFlowMachine } from '../../kernel/useFlowMachine'
import { decimalMarkOf, localeAmount } from '../../lib/decimal'
import { AmountScreen } from '../../screens/bankDeposit/AmountScreen'
import { Notice } from '../../components/Notice'
import { t } from '../../i18n/i18n'
import type { Services } from '../../services'
import { safeLocalStorage, safeSessionStorage } from '../../storage/flowStore'
import { createBankDepositEffects } from './effects'
import { lazyPart, useLazyPart } from './lazyPart'
import { bankDepositEvents } from './hostEvents'
import { type FlowEvent, type FlowState, amountState, flowTransition, resumeState } from './machine'
import { attemptStore, depositStore, newReference } from './persisted'

// This flow's English strings come with its chunk, not with the first load (the details' with their screens).
addEnglish({ ...enBankDepositAmount, ...enLimits })

// Fetched when needed, not before the first screen: the identity steps (only for a buyer the
// service does not know) and the screens after the deposit exists (fetched while the amount shows).
const identitySteps = lazyPart(() => import('../../screens/identity/IdentitySteps'))
const depositScreens = lazyPart(() => import('../../screens/bankDeposit/DepositScreens'))

type Props = { services: Services; onStep: (step: number, of: number) => void; switchFlow?: (flow: Flow) => void }

const STEPS: Record<FlowState['tag'], number> = { wallet: 1, identity: 2, details: 3, amount: 4, following: 5, done: 5 }

export default function BankDepositFlow({ services, onStep, switchFlow }: Props) {
  const { config } = services
  const local = safeLocalStorage()
  const session = safeSessionStorage()
  const parts = useRef<{ store: ReturnType<typeof depositStore>; accounts: ReturnType<typeof identityStart>['accounts'] } | undefined>(undefined)
  const [state, dispatch] = useFlowMachine<FlowState, FlowEvent>(() => {
    const store = depositStore(local)
    const attempts = attemptStore(local)
    const start = identityStart(config, local, session)
    parts.current = { store, accounts: start.accounts }
    const ctx = {
      get decimalMark() {
        return decimalMarkOf(config.locale)
      },
      currencies: config.fiatCurrencies,
      form: (country?: string) => ({
        country: country ?? regionOf(config.locale),
        currency: config.fiatCurrencies[0],
        // Options carry amounts with a dot; the field shows them as the buyer types in this locale.
        amount: config.amount ? localeAmount(config.amount, decimalMarkOf(config.locale)) : '',
      }),
    }
    const kept = store.load()
    const pending = start.account && config.reference ? attempts.load() : undefined
    // A partner's reference already sent for this buyer: the retry asks for what the first one did.
    const form = pending?.accountId === start.account?.accountId && pending ? { ...ctx.form(), currency: pending.currency, amount: localeAmount(pending.amount, ctx.decimalMark) } : ctx.form()
    const initial: FlowState = kept
      ? resumeState(kept.deposit, kept.status)
      : start.account
        ? amountState(start.account, form, !!pending && pending.accountId === start.account.accountId)
        : start.identity
    return {
      initial,
      transition: (state, event) => flowTransition(state, event, ctx),
      observe: (prev, next) => {
        for (const e of bankDepositEvents(prev, next)) services.emit(e.name, e.payload as never)
      },
      effects: (dispatch) =>
        createBankDepositEffects(
          {
            http: createPartnerHttp({ base: config.partnerBase ?? '', token: config.partnerToken, cookies: config.partnerCookies }),
            store,
            attempts,
            clock: systemClock,
            partnerReference: config.reference,
            newReference: () => newReference(),
            pollIntervalMs: config.timings?.bankPollMs,
          },
          dispatch,
          (state) => identityEffect(state, { api: services.api, accounts: start.accounts, usedCodes: start.usedCodes }, dispatch),
        ),
    }
  }, [services])

  const identityPath = useRef(isIdentityState(state))
  const step = STEPS[state.tag]
  useEffect(() => (identityPath.current ? onStep(step, 5) : onStep(step - 3, 2)), [step])
  useIdentitySync(state, dispatch, services, session)
  // The partner's amount, updated live (unless a retry pinned it).
  const { amount, locale } = services.live.value
  useEffect(() => {
    if (amount !== undefined) dispatch({ type: 'EDIT', amount: localeAmount(amount, decimalMarkOf(locale)) })
  }, [amount])

  const restart = () => {
    const account = parts.current?.accounts.load()
    parts.current?.store.clear()
    if (account) {
      dispatch({
        type: 'RESTART',
        account,
        form: {
          // Where the last deposit came from; the currency follows the country once the reference data is in.
          country: (state.tag === 'following' || state.tag === 'done' ? state.deposit.country : undefined) ?? regionOf(config.locale),
          currency: config.fiatCurrencies[0],
          amount: config.amount ? localeAmount(config.amount, decimalMarkOf(config.locale)) : '',
        },
      })
    } else location.reload()
  }
  // The standing virtual account (the onboarding flow): in place where the widget lets us switch;
  // otherwise by this link naming that flow, which only an unsigned link may (a signed one is the
  // partner's word as it is).
  const otherLink = returnToThisLink(location.href, 'onboarding')
  const virtualAccount = switchFlow
    ? () => switchFlow('onboarding')
    : new URL(otherLink).searchParams.get('flow') === 'onboarding'
      ? () => location.assign(otherLink)
      : undefined

  const identity = useLazyPart(identitySteps, isIdentityState(state))
  // Wanted from the amount screen on: here by the time the deposit exists.
  const screens = useLazyPart(depositScreens, state.tag !== 'wallet' && state.tag !== 'identity' && state.tag !== 'details')

  if (isIdentityState(state)) {
    if (identity === 'failed') return <Notice tone="error">{t('app.loadFailed')}</Notice>
    if (!identity) return <p role="status">{t('app.loading')}</p>
    return <identity.IdentitySteps state={state} dispatch={dispatch} identityUrl={config.identityUrl ?? ''} flow="bankDeposit" locale={config.locale} />
  }
  if (state.tag === 'amount') return <AmountScreen state={state} dispatch={dispatch} config={config} onVirtualAccount={virtualAccount} />
  if (screens === 'failed') return <Notice tone="error">{t('app.loadFailed')}</Notice>
  if (!screens) return <p role="status">{t('app.loading')}</p>
  return state.tag === 'following' ? (
    <screens.FollowScreen state={state} dispatch={dispatch} locale={config.locale} onRestart={restart} />
  ) : (
    <screens.ResultScreen state={state} locale={config.locale} chain={chainOfDestination(services)} onRestart={restart} />
  )
}

function chainOfDestination(services: Services) {
  const { config } = services
  const id = config.destination?.chainId ?? config.defaultDestination.chainId
  return config.chains.find((c) => c.id === id) ?? { id, name: `Chain ${id}` }
}

/** "de-DE" → "DE"; a language alone names no country. */
function regionOf(locale: string): string {
  try {
    return new Intl.Locale(locale).region ?? ''
  } catch {
    return ''
  }
}
