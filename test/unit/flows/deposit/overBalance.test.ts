// A quote refused as no_route for an amount over what the connected wallet holds is said as that
// (issue 39, item 12): the wallet holds less, in the source token's own symbol, never "usually
// temporary". Only a balance the wallet lets us read decides it; otherwise no_route keeps its words.
import '../../setup/afterFirstScreen'
import '../../../../src/polling/pollStatus'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { NoRoute } from '../../../../src/errors/ApiError'
import { problemText } from '../../../../src/errors/words'
import { enDeposit } from '../../../../src/i18n/en-deposit'
import { addEnglish } from '../../../../src/i18n/i18n'
import type { DepositState } from '../../../../src/flows/deposit/machine'
import { until } from '../../helpers/fakeClock'
import { inTurn } from '../../helpers/fakeApi'
import { USDC } from '../../helpers/fakeChain'
import { type DepositDriver, type DepositWorld, depositConfig, depositWorld, driveDeposit, endDepositWorld, form, sessionOf } from '../../helpers/deposit'

const timings = { pollMs: 1_000, dropCheckMs: 500, kycRecheckMs: 1_000, bankPollMs: 1_000, backoffBaseMs: 100 }
// A source that is not USDC: the words name the partner's token, never an assumed one.
const config = { ...depositConfig, timings, sources: [{ chainId: 8453, token: USDC, symbol: 'EURC', decimals: 6 }] }

// The deposit's words load with the flow (DepositFlow.tsx), as here.
addEnglish(enDeposit)

let { clock, target, announced, chain, api } = {} as DepositWorld
let driver: DepositDriver | undefined
beforeEach(() => {
  ;({ clock, target, announced, chain, api } = depositWorld())
})
afterEach(() => {
  endDepositWorld(driver, announced)
  driver = undefined
})

function failedWith(balance: () => Promise<bigint>) {
  chain.actions.tokenBalance.mockImplementation(balance)
  api.answer('/deposit/quote', inTurn(new NoRoute(400, 'no_route', 'No provider can route this amount right now.')))
  const start: DepositState = { tag: 'quoting', form, session: sessionOf(announced.wallet), amount: '25.5', requote: false }
  driver = driveDeposit(start, { config, api, target, clock, loadChainActions: chain.load })
  const d = driver
  return until(() => d.state().tag === 'form', 'QUOTE_FAILED').then(() => {
    const s = d.state()
    if (s.tag !== 'form' || s.error?.kind !== 'api') throw new Error(`no api error: ${JSON.stringify(s)}`)
    return s.error.problem
  })
}

it('no_route for more than the wallet holds: says what it holds, in the source token, not "no route"', async () => {
  const problem = await failedWith(async () => 3_250_000n)
  expect(problem).toMatchObject({ key: 'quote.overBalance', code: 'no_route' })
  const text = problemText(problem)
  expect(text).toContain('3.25 EURC')
  expect(text).not.toMatch(/USDC|route|temporary/i)
})

it('no_route for an amount the wallet holds keeps the route words', async () => {
  const problem = await failedWith(async () => 10n ** 12n)
  expect(problem.key).toBe('quote.noRoute')
})

it('a balance that cannot be read refuses nothing on its account: the route words stay', async () => {
  const problem = await failedWith(async () => {
    throw new Error('rpc down')
  })
  expect(problem.key).toBe('quote.noRoute')
})
