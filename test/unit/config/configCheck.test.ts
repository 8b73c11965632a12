// The options are checked without zod (src/config/check.ts), so the first screen does not load it.
// The zod schemas they replaced stay the oracle: on many generated option sets, valid, nearly valid
// and hostile, parseOptions and parseLiveOptions give exactly what the zod version gives (the same
// config, or the same first problem in the same words), and throw where it throws.
import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import { parseOptions, readConfig } from '../../../src/config/config'
import { parseLiveOptions } from '../../../src/config/live'
import * as oracle from './zodOptions'

function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const HEX40 = '833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const strings = [
  '',
  ' ',
  'x',
  'USDC',
  'ETH',
  'EUR',
  'USD',
  'eur',
  'EURO',
  'E1R',
  'Base',
  'de',
  'pt-BR',
  'en-US',
  'zz',
  'x-private',
  'en_US',
  '!!',
  'de-',
  'i-klingon',
  'https://api.partner.example',
  'http://localhost:8787',
  'https://sandbox.api.example/',
  'javascript:alert(1)',
  'data:text/html,hi',
  '/api',
  '//evil.example',
  'ftp://x.example',
  'https://',
  'http://[::1]:1',
  'https://user:pw@x.example',
  'https://partner.example',
  'https://partner.example/',
  'http://a:1',
  '#fff',
  '#1d4ed8',
  '#ggg',
  '#12345',
  'red',
  'Inter, sans-serif',
  "'Open Sans'",
  'a;b',
  'x'.repeat(121),
  'x'.repeat(120),
  '0',
  '12',
  '12.5',
  '0.000001',
  '1e5',
  '-1',
  '1.',
  '.5',
  '1,5',
  '١٢',
  '12.5 ',
  `0x${HEX40}`,
  `0x${HEX40.slice(1)}`,
  `0X${HEX40}`,
  `0x${HEX40}0`,
  'pay.example',
  'pay.example:8443',
  'a'.repeat(12),
  'a'.repeat(13),
  'a'.repeat(64),
  'a'.repeat(65),
  'a'.repeat(512),
  'a'.repeat(513),
  'a'.repeat(2048),
  'a'.repeat(2049),
  '__proto__',
  'constructor',
  'toString',
  'deposit',
  'card',
  'onboarding',
  'bankDeposit',
  'payout',
  'cardPayout',
  'sell',
  'light',
  'dark',
  'auto',
  'Light',
  '\u0000',
  '\ud800',
  '😀',
]
const numbers = [
  0,
  -0,
  1,
  -1,
  1.5,
  6,
  8453,
  42161,
  10,
  12,
  32,
  32.5,
  33,
  36,
  37,
  49,
  50,
  600_000,
  600_001,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 53 + 2,
  1e300,
  -1e300,
  Number.MIN_VALUE,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
]

/** An own property, as JSON.parse makes it (even `__proto__`). */
const put = (target: object, key: string, value: unknown) => Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })

type Gen = (r: () => number, depth?: number) => unknown
const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]

const anything: Gen = (r, depth = 0) => {
  const k = r()
  if (k < 0.08) return undefined
  if (k < 0.12) return null
  if (k < 0.18) return r() < 0.5
  if (k < 0.4) return pick(r, numbers)
  if (k < 0.7) return pick(r, strings)
  if (depth > 2) return pick(r, [[], {}, Symbol('s'), () => 1, new Date(0), Object.create(null), 10n])
  if (k < 0.82) return Array.from({ length: Math.floor(r() * 4) }, () => anything(r, depth + 1))
  if (k < 0.95) {
    const out: Record<string, unknown> = r() < 0.1 ? Object.create(null) : {}
    for (let i = Math.floor(r() * 4); i > 0; i--) put(out, pick(r, FIELD_NAMES), anything(r, depth + 1))
    return out
  }
  return pick(r, [Symbol('s'), () => 1, new Date(0), new Map(), [, 1], 10n, new String('x'), new Number(1)])
}

const FIELD_NAMES = [
  'id',
  'name',
  'rpcUrl',
  'explorerUrl',
  'nativeSymbol',
  'routers',
  'chainId',
  'token',
  'symbol',
  'decimals',
  'address',
  'color',
  'radius',
  'font',
  'pollMs',
  'dropCheckMs',
  'kycRecheckMs',
  'bankPollMs',
  'backoffBaseMs',
  '__proto__',
  'constructor',
  'extra',
]

const address = (r: () => number) => (r() < 0.85 ? `0x${HEX40}` : anything(r))
const chain = (r: () => number) => ({
  id: pick(r, [8453, 42161, 10, 1]),
  name: pick(r, ['Base', 'Optimism', 'x']),
  ...(r() < 0.5 ? { rpcUrl: 'https://rpc.example' } : {}),
  ...(r() < 0.5 ? { explorerUrl: 'https://scan.example' } : {}),
  ...(r() < 0.3 ? { nativeSymbol: 'ETH' } : {}),
  ...(r() < 0.3 ? { routers: Array.from({ length: Math.floor(r() * 3) }, () => address(r)) } : {}),
})
const token = (r: () => number) => ({
  chainId: pick(r, [8453, 10, 42161]),
  token: address(r),
  symbol: pick(r, ['USDC', 'ETH', 'a'.repeat(12)]),
  decimals: pick(r, [0, 6, 18, 36]),
})
const brand = (r: () => number) => ({
  ...(r() < 0.6 ? { color: pick(r, ['#fff', '#1d4ed8']) } : {}),
  ...(r() < 0.6 ? { radius: pick(r, [0, 8, 32, 12.5]) } : {}),
  ...(r() < 0.6 ? { font: pick(r, ['Inter, sans-serif', "'Open Sans'"]) } : {}),
})
const timings = (r: () => number) => ({
  pollMs: pick(r, [50, 200, 600_000]),
  ...(r() < 0.5 ? { backoffBaseMs: 100 } : {}),
  ...(r() < 0.3 ? { bankPollMs: 300 } : {}),
})

/** A valid value, often with one thing broken somewhere inside it. */
function nearly(r: () => number, make: (r: () => number) => unknown): unknown {
  const value = make(r)
  if (r() < 0.75 || value === null || typeof value !== 'object') return value
  const target = Array.isArray(value) && value.length ? value[Math.floor(r() * value.length)] : value
  if (target && typeof target === 'object' && !Array.isArray(target)) {
    const keys = Object.keys(target)
    const key = r() < 0.7 && keys.length ? pick(r, keys) : pick(r, FIELD_NAMES)
    if (r() < 0.2) delete (target as Record<string, unknown>)[key]
    else put(target, key, anything(r))
  } else if (Array.isArray(value)) {
    value.push(anything(r))
  }
  return value
}
const list =
  (make: (r: () => number) => unknown, max = 3) =>
  (r: () => number) =>
    Array.from({ length: Math.floor(r() * (max + 1)) }, () => nearly(r, make))

const fields: Record<string, Gen> = {
  flow: (r) => pick(r, ['deposit', 'card', 'onboarding', 'bankDeposit', 'payout', 'cardPayout']),
  flows: (r) => ['deposit', 'card', 'onboarding', 'bankDeposit', 'payout', 'cardPayout'].filter(() => r() < 0.9),
  apiBase: (r) => pick(r, ['https://api.partner.example', 'http://localhost:8787', 'https://sandbox.api.example']),
  partnerBase: (r) => pick(r, ['https://shop.example/api', 'http://127.0.0.1:9000']),
  partnerToken: (r) => pick(r, ['t', 'a'.repeat(2048)]),
  partnerCookies: (r) => r() < 0.5,
  sandbox: (r) => r() < 0.5,
  locale: (r) => pick(r, ['de', 'pt-BR', 'en']),
  theme: (r) => pick(r, ['light', 'dark', 'auto']),
  brand: (r) => nearly(r, brand),
  chains: list(chain),
  sources: list(token),
  destination: (r) => nearly(r, (r) => ({ ...token(r), ...(r() < 0.5 ? { address: address(r) } : {}) })),
  currencies: (r) => nearly(r, (r) => Array.from({ length: Math.floor(r() * 3) }, () => pick(r, ['EUR', 'USD', 'GBP']))),
  cardHosts: (r) => nearly(r, (r) => Array.from({ length: Math.floor(r() * 3) }, () => pick(r, ['pay.example', 'pay.example:8443']))),
  cardCrypto: (r) => pick(r, ['ETH', 'USDC']),
  walletAddress: address,
  amount: (r) => pick(r, ['80', '12.5', '0.000001']),
  lockAmount: (r) => r() < 0.5,
  identityUrl: (r) => pick(r, ['https://id.example/start', 'http://localhost:8787/identity']),
  authCode: (r) => pick(r, ['code-1', 'a'.repeat(512)]),
  parentOrigin: (r) => pick(r, ['https://partner.example', 'http://localhost:5173']),
  reference: (r) => pick(r, ['order-42', '', 'a'.repeat(64)]),
  returnUrl: (r) => pick(r, ['https://shop.example/done']),
  timings: (r) => nearly(r, timings),
}

/** Each option absent half the time; when given, hostile (anything at all) at `hostile`'s rate. */
function optionSet(r: () => number, names: string[] = Object.keys(fields), hostile = 0.04): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const name of names) {
    if (name !== 'apiBase' && r() < 0.5) continue
    out[name] = r() < hostile ? anything(r) : fields[name](r)
  }
  // Now and then a known buyer: mostly the ids together with their wallet, sometimes half of one or a bad id.
  if (names.includes('walletAddress') && r() < 0.1) {
    if (r() < 0.9) out.accountId = r() < hostile ? anything(r) : pick(r, ['acc_1', 'a'.repeat(128), 'acc_2', 'a'.repeat(129), 'acc 1', ''])
    if (r() < 0.9) out.walletId = r() < hostile ? anything(r) : pick(r, ['wal_1', 'w', 'wal_2', 'wal\u202e1'])
    if (r() < 0.9) out.walletAddress ??= `0x${HEX40}`
  }
  // Now and then a name that is not an option, or an inherited-looking one.
  if (r() < 0.1) put(out, pick(r, ['amuont', 'constructor', '__proto__', 'toString']), anything(r))
  return out
}

function outcome(run: () => unknown): unknown {
  try {
    return { returned: run() }
  } catch (error) {
    return { threw: error instanceof Error ? error.constructor.name : typeof error }
  }
}

function compare(
  count: number,
  seed: number,
  make: (r: () => number) => Record<string, unknown>,
  ours: (o: Record<string, unknown>) => unknown,
  theirs: (o: Record<string, unknown>) => unknown,
) {
  const r = rng(seed)
  const tally = { ok: 0, refused: 0 }
  for (let i = 0; i < count; i++) {
    const options = make(r)
    const a = outcome(() => ours(options))
    const b = outcome(() => theirs(options))
    if (!isDeepStrictEqual(a, b)) expect({ options, checker: a }).toStrictEqual({ options, checker: b })
    const result = (b as { returned?: { ok?: boolean } }).returned
    if (result?.ok) tally.ok++
    else tally.refused++
  }
  return tally
}

describe('the options checker against the zod schemas it replaced', () => {
  const languages = ['en', 'de-DE', 'fr-FR', 'pt-BR', 'not a tag', '', 'x-private']

  // Each run: how many sets, the seed, how a set is made, ours and the oracle's; then at least how
  // many of them each kind (configs, refusals) is, so the generator is not producing just one kind
  // (-1: any number).
  type Run = [
    string,
    number,
    number,
    Parameters<typeof compare>[2],
    Parameters<typeof compare>[3],
    Parameters<typeof compare>[4],
    { ok: number; refused: number },
  ]
  const runs: Run[] = [
    [
      'parseOptions: the same config, or the same first problem, on 5 000 generated option sets',
      5_000,
      19,
      (r) => ({ ...optionSet(r, Object.keys(fields), r() < 0.5 ? 0 : 0.05), language: pick(r, languages) }),
      ({ language, ...o }) => parseOptions(o, language as string),
      ({ language, ...o }) => oracle.parseOptions(o, language as string),
      { ok: 750, refused: 750 },
    ],
    [
      'parseOptions: the same on 1 000 option sets that each say walletLink (true, false, or anything), with or without partnerBase',
      1_000,
      23,
      (r) => ({ ...optionSet(r, Object.keys(fields), r() < 0.5 ? 0 : 0.05), walletLink: r() < 0.1 ? anything(r) : r() < 0.6 }),
      (o) => parseOptions(o),
      (o) => oracle.parseOptions(o),
      { ok: 50, refused: 50 },
    ],
    [
      'parseOptions: hostile values in every field, on 2 500 option sets',
      2_500,
      7,
      (r) => optionSet(r, Object.keys(fields), 0.3),
      (o) => parseOptions(o),
      (o) => oracle.parseOptions(o),
      { ok: -1, refused: 1_250 },
    ],
    [
      'parseLiveOptions: the same update, or the same problem, on 2 500 generated updates',
      2_500,
      23,
      (r) => optionSet(r, ['theme', 'brand', 'locale', 'amount', 'authCode', ...(r() < 0.1 ? ['flow'] : [])], 0.15),
      (o) => parseLiveOptions(o),
      (o) => oracle.parseLiveOptions(o),
      { ok: 500, refused: 500 },
    ],
  ]

  it.each(runs)(
    '%s',
    (_name, count, seed, make, ours, theirs, least) => {
      const tally = compare(count, seed, make, ours, theirs)
      expect(tally.ok).toBeGreaterThan(least.ok)
      expect(tally.refused).toBeGreaterThan(least.refused)
    },
    60_000,
  )

  it('parseOptions: query parameters as the hosted page reads them', () => {
    const r = rng(31)
    for (let i = 0; i < 1_250; i++) {
      const params = new URLSearchParams()
      for (const [name, value] of Object.entries(optionSet(r))) {
        if (value === undefined || typeof value === 'symbol' || typeof value === 'function' || typeof value === 'bigint') continue
        const json = outcome(() => JSON.stringify(value)) as { returned?: string }
        const text = outcome(() => String(value)) as { returned?: string }
        const param = typeof value === 'string' ? value : r() < 0.7 && json.returned !== undefined ? json.returned : text.returned
        if (param !== undefined) params.set(name, param)
      }
      const search = `?${params}`
      expect({ search, result: outcome(() => readConfig(search)) }).toStrictEqual({
        search,
        result: outcome(() => oracle.readConfig(search)),
      })
    }
  }, 60_000)
})
