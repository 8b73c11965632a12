// @vitest-environment happy-dom
import { render } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Countdown } from '../../../src/components/Countdown'
import { addEnglish } from '../../../src/i18n/i18n'
import { enDeposit } from '../../../src/i18n/en-deposit'

addEnglish(enDeposit)
afterEach(() => vi.useRealTimers())

describe('Countdown', () => {
  it.each([
    [102_000, '1:42'],
    [59_000, '0:59'],
    [7_199_000, '1:59:59'],
    [3_600_000, '1:00:00'],
  ])('%i ms left reads %s', (ms, time) => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 23, 12) })
    const { container } = render(<Countdown expiresAt={new Date(Date.now() + ms).toISOString()} />)
    expect(container.textContent).toContain(time)
  })
})
