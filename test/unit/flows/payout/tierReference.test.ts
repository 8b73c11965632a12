// Review of issue 31: after 422 requires_action the refused request goes again under the reference
// it was refused with (creating.ts referenceFor: `state.reference`). That reference is then used for
// whatever request the buyer sends next, bypassing the rule the rest of the flow keeps ("a reference
// belongs to exactly one request": referenceStore.forRequest, the signed reference's claim). The
// service returns the first payout for a repeated reference (partner-api.md, POST /v1/bank/payout).
// So once one request under it was created and its answer lost, a corrected beneficiary gets back
// the payout for the first one, and the buyer funds it.
import '../../setup/afterFirstScreen'
import { describe, expect, it } from 'vitest'
import type { PartnerHttp } from '../../../../src/api/partnerHttp'
import { ApiError, PartnerUnreachableError } from '../../../../src/errors/ApiError'
import { emptyDraft } from '../../../../src/flows/payout/base'
import { type PayoutState, transition } from '../../../../src/flows/payout/machine'
import { settle } from '../../helpers/fakeClock'
import { BUYER, NOW, bankQuote, buyer, config, ctx, drive as drivePayout, payoutConfig, toDestination, toIdentity } from '../../helpers/payout'

const IBAN_TYPO = 'DE89 3704 0044 0532 0130 00'
const IBAN_FIXED = 'DE75 5121 0800 1245 1261 99'
const quote = bankQuote()

/**
 * The service as the contract has it: a repeated reference returns the original payout, whatever
 * the request. `lose`: answers of these creations never reach the page (created all the same).
 */
function idempotentService(script: Array<'requiresAction' | 'lose' | 'answer'>) {
  const calls: Array<Record<string, unknown>> = []
  const byReference = new Map<string, { id: string; beneficiary: Record<string, unknown> }>()
  const beneficiaryOf = new Map<string, Record<string, unknown>>()
  const post = async (path: string, body: unknown) => {
    if (path !== '/bank/payout') throw new Error(`no answer for ${path}`)
    const request = body as { reference: string; beneficiary: Record<string, unknown> }
    calls.push(request)
    const step = script.shift() ?? 'answer'
    if (step === 'requiresAction') throw new ApiError(422, 'requires_action', 'higher tier')
    let payout = byReference.get(request.reference)
    if (!payout) {
      payout = { id: `bp_${byReference.size + 1}`, beneficiary: request.beneficiary }
      byReference.set(request.reference, payout)
      beneficiaryOf.set(payout.id, request.beneficiary)
    }
    if (step === 'lose') throw new PartnerUnreachableError(new TypeError('Failed to fetch'))
    const n = Number(payout.id.slice(3))
    return {
      id: payout.id,
      depositAddress: `0x${String(n).repeat(40)}`,
      depositAmount: quote.cryptoAmount,
      chain: 8453,
      status: 'pending',
      expiresAt: quote.expiresAt,
    } as never
  }
  const partner: PartnerHttp = { get: (path) => post(path, {}), post: (path, body) => post(path, body) }
  return { partner, calls, beneficiaryOf }
}

function drive(initial: PayoutState, partner: PartnerHttp, cfg = config) {
  let n = 0
  return drivePayout(initial, { partner, config: cfg, now: () => NOW, newReference: () => `po_new${++n}` })
}

const sepa = (IBAN: string, reference?: string): PayoutState => ({
  tag: 'beneficiary',
  buyer,
  form: ctx.emptyForm(),
  draft: { ...emptyDraft(), schema: 'bank_sepa', values: { name: 'Ada Lovelace', accountType: 'individual', firstName: 'Ada', lastName: 'Lovelace', IBAN } },
  ask: { kind: 'fiat', amount: '20', currency: 'EUR', country: 'DE' },
  quote,
  quotedAt: NOW,
  // The wallet connected before the price was taken on (price-first order).
  funder: { sender: BUYER },
  problems: {},
  work: 'idle',
  ...(reference ? { reference } : {}),
})

/** After a higher tier, as the machine hands it back (identityStep with pending.tier): the refused request's reference on the state. */
function afterHigherTier(): PayoutState {
  let s = transition(sepa(IBAN_TYPO), toDestination({ type: 'SUBMIT', now: NOW }), ctx)
  s = transition(s, toDestination({ type: 'CREATE_FAILED', problem: { key: 'error.requiresAction', code: 'requires_action' }, requiresAction: true }), ctx)
  s = transition(s, toIdentity({ type: 'AUTH_CODE', code: 'c2' }), ctx)
  s = transition(
    { ...(s as Extract<PayoutState, { tag: 'details' }>), work: 'submitting' },
    toIdentity({ type: 'ONBOARDED', accountId: 'acc_1', walletId: 'w_1', kycStatus: 'approved' }),
    ctx,
  )
  expect(s).toMatchObject({ tag: 'beneficiary', draft: { values: { IBAN: IBAN_TYPO } } })
  return s
}

/** The buyer submits; the answer of that creation is lost; they correct the IBAN and submit again. */
async function loseThenCorrect(start: PayoutState, service: ReturnType<typeof idempotentService>, cfg = config) {
  const run = drive(start, service.partner, cfg)
  run.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
  await settle(10)
  expect(run.state()).toMatchObject({ tag: 'beneficiary', work: 'idle' })
  run.dispatch(toDestination({ type: 'EDIT', values: { IBAN: IBAN_FIXED } }))
  run.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
  await settle(10)
  return run.state()
}

describe('the reference a higher tier hands back', () => {
  it('a corrected beneficiary after a lost answer is funded as its own payout, not the first one', async () => {
    const service = idempotentService(['lose', 'answer'])
    const end = await loseThenCorrect(afterHigherTier(), service)
    expect(end.tag).toBe('funding')
    const funded = (end as Extract<PayoutState, { tag: 'funding' }>).record.id
    // The payout the buyer is asked to fund pays the IBAN on the screen, not the one corrected away.
    expect(service.beneficiaryOf.get(funded)?.IBAN).toBe(IBAN_FIXED.replace(/ /g, ''))
  })

  it('two different requests never go under one reference', async () => {
    const service = idempotentService(['lose', 'answer'])
    await loseThenCorrect(afterHigherTier(), service)
    const [first, second] = service.calls as Array<{ reference: string; beneficiary: { IBAN: string } }>
    expect(first.beneficiary.IBAN).not.toBe(second.beneficiary.IBAN)
    expect(second.reference).not.toBe(first.reference)
  })

  it('held: without a higher tier, the same correction gets its own reference and its own payout', async () => {
    const service = idempotentService(['lose', 'answer'])
    const end = await loseThenCorrect(sepa(IBAN_TYPO), service)
    const funded = (end as Extract<PayoutState, { tag: 'funding' }>).record.id
    expect(service.beneficiaryOf.get(funded)?.IBAN).toBe(IBAN_FIXED.replace(/ /g, ''))
  })

  it("held: a partner's signed reference is never sent with the corrected request (its claim names the first one)", async () => {
    const signed = payoutConfig({ reference: 'order-1' })
    const service = idempotentService(['lose', 'answer'])
    await loseThenCorrect(sepa(IBAN_TYPO, 'order-1'), service, signed)
    expect(service.calls.map((c) => (c as { beneficiary: { IBAN: string } }).beneficiary.IBAN)).toEqual([IBAN_TYPO.replace(/ /g, '')])
  })
})
