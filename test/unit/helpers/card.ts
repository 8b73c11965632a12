// The card flow's fixtures: a config with a partner backend and one card host, a quote priced at a
// given time, and a fake partner backend (CardCalls) whose every call is a vi.fn.
import { vi } from 'vitest'
import type { CardCalls } from '../../../src/api/card'
import type { CardQuote } from '../../../src/api/schemas'
import type { WidgetConfig } from '../../../src/config/config'
import { configFrom } from './links'

export const cardConfig: WidgetConfig = configFrom({
  apiBase: 'http://127.0.0.1:8787',
  flow: 'card',
  partnerBase: 'https://shop.example/api',
  cardHosts: ['pay.cardprovider.example'],
})

export function cardQuote(now: number, ttlMs = 60_000): CardQuote {
  return {
    cryptoAmount: '0.01',
    cryptoCurrency: 'ETH',
    fiatAmount: '50',
    rate: '5000',
    providerFee: '1',
    ourFee: '0.5',
    total: '51.5',
    expiresAt: new Date(now + ttlMs).toISOString(),
  }
}

export function fakePartner() {
  return {
    limits: vi.fn(async (fiatCurrency: string, cryptoCurrency: string) => ({ fiatCurrency, cryptoCurrency, min: '10', max: '1000' })),
    kycToken: vi.fn(async (_walletAddress: string) => ({ token: 'kyc-1', environment: 'sandbox' })),
    purchase: vi.fn(async (_request: Parameters<CardCalls['purchase']>[0]) => ({
      id: 'p-1',
      redirectUrl: 'https://pay.cardprovider.example/checkout/p-1',
      environment: 'sandbox',
    })),
    status: vi.fn(async (id: string) => ({ id, status: 'pending', environment: 'sandbox' }) as Awaited<ReturnType<CardCalls['status']>>),
  }
}
