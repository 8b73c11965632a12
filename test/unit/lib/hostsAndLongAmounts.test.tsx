// Card hosts without a port, amounts beyond Intl's digit cap, and canonical option amounts shown
// with the locale's mark.
// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { readConfig } from '../../../src/config/config'
import { CardStatusScreen } from '../../../src/screens/card/CardStatusScreen'
import { enCard } from '../../../src/i18n/en-card'
import { addEnglish } from '../../../src/i18n/i18n'
import { formatAmount, localeAmount } from '../../../src/lib/decimal'
import { validateRedirect } from '../../../src/lib/redirect'

addEnglish(enCard)
afterEach(cleanup)

describe('a cardHosts entry without a port means the default port only', () => {
  const allowed = ['pay.example.com', 'localhost', '127.0.0.1:19787']
  for (const url of ['https://pay.example.com:1/', 'https://pay.example.com:8443/x', 'http://localhost:1/x']) {
    it(`refuses ${url}`, () => {
      expect(validateRedirect(url, allowed, true)).toEqual({ ok: false, problem: 'host' })
    })
  }
  for (const url of ['https://pay.example.com/x', 'https://pay.example.com:443/x', 'http://localhost/x', 'http://127.0.0.1:19787/x']) {
    it(`accepts ${url}`, () => {
      expect(validateRedirect(url, allowed, true).ok).toBe(true)
    })
  }
})

describe('amounts with more fraction digits than Intl takes', () => {
  const long = `0.${'1234567890'.repeat(3)}12`
  it('formats 32 fraction digits exactly, in en and de', () => {
    expect(formatAmount(long, 'en')).toBe(long)
    expect(formatAmount(`1234${long.slice(1)}`, 'de')).toBe(`1.234,${long.slice(2)}`)
    expect(formatAmount('1.000000000000000000000000000000', 'en')).toBe('1')
    expect(formatAmount('0.000000000000000000000001', 'en', 'ETH')).toBe('0.000000000000000000000001 ETH')
  })
  it('keeps the locale’s digits', () => {
    expect(formatAmount('1234.5', 'ar-EG')).toBe(new Intl.NumberFormat('ar-EG', { maximumFractionDigits: 1 }).format(1234.5))
  })
  it('the card status screen shows a 25-digit cryptoAmount instead of throwing', () => {
    const result = readConfig('?apiBase=https://api.example.com&partnerBase=https://p.example.com&locale=en')
    if (!result.ok) throw new Error(result.problem)
    const cryptoAmount = `0.${'1'.repeat(25)}`
    const purchase = { id: 'p1', environment: 'sandbox', currency: 'EUR', total: '50', cryptoAmount, cryptoCurrency: 'ETH', createdAt: 0 }
    const { container } = render(
      <CardStatusScreen
        state={{ tag: 'tracking', purchase, attempt: 0, status: { status: 'processing', environment: 'sandbox', cryptoAmount } }}
        dispatch={() => {}}
        config={result.config}
      />,
    )
    expect(container.textContent).toContain(`${cryptoAmount} ETH`)
  })
})

describe('canonical amounts shown with the locale’s mark', () => {
  it('a dot becomes the locale’s mark, nothing else changes', () => {
    expect(localeAmount('25.50', ',')).toBe('25,50')
    expect(localeAmount('80.5', '.')).toBe('80.5')
    expect(localeAmount('1000', ',')).toBe('1000')
  })
})
