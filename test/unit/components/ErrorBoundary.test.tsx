// @vitest-environment happy-dom
// Issue 15, item 3: a screen that throws while rendering does not blank the widget, and the
// flow's saved state survives for the next mount.
import { cleanup, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { App } from '../../../src/App'
import { readConfig } from '../../../src/config/config'
import { createServices } from '../../../src/services'
import { scopedStorage } from '../../../src/storage/safeStorage'

vi.mock('../../../src/flows/onboarding/OnboardingFlow', () => ({
  default: () => {
    throw new RangeError('not a basis-point value: 1e+21')
  },
}))

afterEach(() => {
  cleanup()
  localStorage.clear()
})

describe('error boundary around every screen', () => {
  it('a flow that throws while rendering shows a readable message, sends an error event, and keeps the saved state', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const saved = JSON.stringify({ accountId: 'acc_1', virtualAccountId: 'va_1', details: { reference: 'SBX-1' }, feeBps: 100, savedAt: Date.now() })
    const result = readConfig('?apiBase=https://api.example.com&identityUrl=https://id.example.com&flow=onboarding&locale=en')
    if (!result.ok) throw new Error(result.problem)
    const kept = scopedStorage(localStorage, result.config)!
    kept.setItem('stablecoin-widget:v1:flow:onboarding', saved)
    const events: Array<{ name: string; payload: unknown }> = []
    const services = createServices(result.config, (name, payload) => void events.push({ name, payload }))
    render(<App result={result} services={services} />)
    expect(await screen.findByRole('heading', { name: 'This step could not be shown' })).toBeTruthy()
    expect(document.body.textContent).toContain('Your progress is saved')
    expect(kept.getItem('stablecoin-widget:v1:flow:onboarding')).toBe(saved)
    expect(events).toContainEqual({ name: 'error', payload: expect.objectContaining({ flow: 'onboarding', code: 'render_failed' }) })
    // The shell (header, live region) is still there around it.
    expect(document.querySelector('header.bar')).not.toBeNull()
  })
})
