// @vitest-environment happy-dom
// Issue 19: the identity steps after the wallet (verification, details) and their English strings
// are fetched while the wallet step shows, not with the bank flows' first screen. Each test imports
// fresh copies (the setup file has loaded the shared ones) and holds the later steps back.
import { cleanup, fireEvent, render, screen } from '@testing-library/preact'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const LATER = '../../../../src/screens/identity/LaterSteps'
const WALLET = '0x1111111111111111111111111111111111111111'

function holdBack(path: string) {
  let release!: () => void
  let fail!: () => void
  const gate = new Promise<void>((resolve, reject) => ((release = resolve), (fail = () => reject(new Error('offline')))))
  const fetches: Promise<unknown>[] = []
  vi.doMock(path, () => {
    const fetched = gate.then(() => vi.importActual(path))
    fetches.push(fetched)
    return fetched
  })
  return { release, fail, asked: () => fetches.length, settled: () => Promise.allSettled(fetches) }
}

async function steps() {
  const { IdentitySteps } = await import('../../../../src/screens/identity/IdentitySteps')
  const { emptyApplicant } = await import('../../../../src/identity/machine')
  return { IdentitySteps, form: { ...emptyApplicant, wallet: WALLET } }
}

beforeEach(() => vi.resetModules())
afterEach(() => {
  cleanup()
  vi.doUnmock(LATER)
})

describe('identity steps: the later steps come after the first screen', () => {
  it('the wallet step shows and works before they arrive, and asks for them at once', async () => {
    const held = holdBack(LATER)
    const { IdentitySteps } = await steps()
    const dispatch = vi.fn()
    render(
      <IdentitySteps
        state={{ tag: 'wallet', form: { ...(await steps()).form, wallet: '' }, connection: { tag: 'discovering' } }}
        dispatch={dispatch}
        identityUrl="https://id.example.com/start"
        flow="onboarding"
        locale="en"
      />,
    )
    expect(screen.getByRole('heading', { name: 'Where should your stablecoins go?' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    expect(dispatch).toHaveBeenCalledWith({ type: 'SUBMIT_WALLET' })
    await vi.waitFor(() => expect(held.asked()).toBe(1))
    held.release()
    await held.settled()
  })

  it('a buyer on the verification step reads "Loading…" until they arrive, then the step in English', async () => {
    const held = holdBack(LATER)
    const { IdentitySteps, form } = await steps()
    render(<IdentitySteps state={{ tag: 'identity', form }} dispatch={() => {}} identityUrl="https://id.example.com/start" flow="onboarding" locale="en" />)
    expect(screen.getByRole('status').textContent).toBe('Loading…')
    expect(screen.queryByRole('heading', { name: 'Verify your identity' })).toBeNull()
    held.release()
    expect(await screen.findByRole('heading', { name: 'Verify your identity' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Verify with our identity partner' }).getAttribute('href')).toContain('https://id.example.com/start')
    await held.settled()
  })

  it('back from the identity provider, the details step shows its fields once they arrive', async () => {
    const held = holdBack(LATER)
    const { IdentitySteps, form } = await steps()
    render(
      <IdentitySteps
        state={{ tag: 'details', form, authCode: 'code-1', errors: {}, work: 'idle' }}
        dispatch={() => {}}
        identityUrl="https://id.example.com/start"
        flow="onboarding"
        locale="en"
      />,
    )
    expect(screen.getByRole('status').textContent).toBe('Loading…')
    held.release()
    expect(await screen.findByLabelText('Full name')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Get the bank details' })).toBeTruthy()
    await held.settled()
  })

  it('if they cannot be fetched, the buyer is told so instead of waiting on a blank screen', async () => {
    const held = holdBack(LATER)
    const { IdentitySteps, form } = await steps()
    render(<IdentitySteps state={{ tag: 'identity', form }} dispatch={() => {}} identityUrl="https://id.example.com/start" flow="payout" locale="en" />)
    held.fail()
    const { t } = await import('../../../../src/i18n/i18n')
    expect((await screen.findByRole('alert')).textContent).toContain(t('app.loadFailed'))
    await held.settled()
  })
})
