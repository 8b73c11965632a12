import { useEffect } from 'preact/hooks'
import { enOnboarding } from '../../i18n/en-onboarding'
import { Notice } from '../../components/Notice'
import { addEnglish, t } from '../../i18n/i18n'
import { lazyPart, useLazyPart } from '../../kernel/lazyPart'
import { defineFlow } from '../../kernel/defineFlow'
import { identityStart, useIdentitySync } from '../../identity/start'
import { systemClock } from '../../kernel/types'
import { useFlowMachine } from '../../kernel/useFlowMachine'
import { IdentitySteps } from '../../screens/identity/IdentitySteps'
import type { Services } from '../../services'
import { partnerStorage } from '../../storage/flowStore'
import { onboardingEvents } from './hostEvents'
import { type Context, type OnboardingEvent, type OnboardingState, initialState, stepOf, transition } from './machine'
import { errorSchemas } from '../../api/client'
import { onboardingSchemas } from '../../api/onboarding'
import { identityChecks, identityKeys } from '../../identity/checks'
import { FirstScreen } from '../../components/FirstScreen'
import { anyStored } from '../../storage/storedCheck'
import { onboardingChecks, onboardingKeys, onboardingStore } from './persisted'

// The I/O is fetched as the flow starts: the first screen works before it arrives (what it asks for
// meanwhile starts once it is here).
const onboardingEffects = lazyPart(() => import('./effects'))

// The screens after the identity steps, fetched while the first screen shows (issue 19).
const accountScreens = lazyPart(() => import('../../screens/onboarding/AccountScreens'))

// This flow's English strings come with its chunk, not with the first load.
addEnglish(enOnboarding)

export default function OnboardingFlow(props: { services: Services; onStep: (step: number, of: number) => void }) {
  return (
    <FirstScreen
      checks={[onboardingChecks, identityChecks]}
      stored={() =>
        anyStored(partnerStorage(props.services.config), [...onboardingKeys, ...identityKeys.local]) ||
        anyStored(partnerStorage(props.services.config, true), identityKeys.session)
      }
      later={[onboardingSchemas, errorSchemas, props.services.limiter]}
    >
      {() => <Onboarding {...props} />}
    </FirstScreen>
  )
}

function Onboarding({ services, onStep }: { services: Services; onStep: (step: number, of: number) => void }) {
  const { config } = services
  const session = partnerStorage(config, true)
  const [state, dispatch] = useFlowMachine<OnboardingState, OnboardingEvent>(() => {
    const storage = partnerStorage(config)
    const store = onboardingStore(storage)
    const start = identityStart(config, storage, session)
    // The identity steps' connect-wallet sub-machine, handed in with the effects (identity/machine.ts: IdentityContext).
    const ctx: Context = {}
    return defineFlow({
      initial: initialState(start.identity, store.load(), start.account),
      transition: (state, event) => transition(state, event, ctx),
      observe: (prev, next) => {
        for (const e of onboardingEvents(prev, next)) services.emit(e.name, e.payload as never)
      },
      effects: onboardingEffects,
      start: ({ createOnboardingEffects }, dispatch) => {
        const effects = createOnboardingEffects(
          {
            config,
            api: services.api,
            store,
            identity: {
              api: services.api,
              accounts: start.accounts,
              usedCodes: start.usedCodes,
              wallet: { target: window, config, clock: systemClock },
            },
            clock: systemClock,
            emit: services.emit,
          },
          dispatch,
        )
        ctx.connectWallet = effects.connectWallet
        return effects
      },
    })
  }, [services])
  const { step, of } = stepOf(state)
  useEffect(() => onStep(step, of), [step, of])
  useIdentitySync(state, dispatch, services, session)

  const later = useLazyPart(accountScreens, true)
  if (state.tag === 'wallet' || state.tag === 'identity' || state.tag === 'details') {
    return <IdentitySteps state={state} dispatch={dispatch} identityUrl={config.identityUrl ?? ''} flow="onboarding" locale={config.locale} />
  }
  if (later === 'failed') return <Notice tone="error">{t('app.loadFailed')}</Notice>
  if (!later) return <p role="status">{t('app.loading')}</p>
  const { AccountScreen, OpeningScreen, RejectedScreen } = later
  switch (state.tag) {
    case 'opening':
      return <OpeningScreen state={state} dispatch={dispatch} />
    case 'rejected':
      return <RejectedScreen />
    case 'tracking':
    case 'result':
      return <AccountScreen state={state} dispatch={dispatch} locale={config.locale} />
  }
}
