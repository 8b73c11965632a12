// Bank transfers with a virtual account: /fiat/onboard, /fiat/account, /fiat/status on the widget
// path, single-use identity codes from an identity page stand-in, and a control to fund accounts.
// The identity page with `tier=higher` (assumed-contract.md, 422 requires_action) issues a code of
// the higher tier: onboarding with it raises the applicant's account (the same wallet, name and
// e-mail) instead of opening another, so the refused request can be repeated as it was.
import { randomBytes } from 'node:crypto'
import { HttpError } from '../http.mjs'

const ISO_COUNTRY = /^[A-Z]{2}$/
const E164 = /^\+[1-9]\d{6,14}$/
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
// individual.category: optional, defaulting to `self_employed`, the only value the contract names.
const CATEGORIES = ['self_employed']
/** The verification tiers the identity provider knows: none asked is the basic one. */
const TIERS = ['higher']
const tierOf = (value) => (value === null || value === undefined || value === '' ? 'basic' : TIERS.includes(value) ? value : undefined)

// The banking partner's own codes, passed through unchanged on 400.
const partnerError = (code, message) => new HttpError(400, code, message)

/** A German IBAN with a valid mod-97 checksum. */
export function makeIban(seed) {
  const bban = `37040044${String(seed).padStart(10, '0').slice(-10)}`
  const numeric = `${bban}131400` // "DE" → 13 14, then "00"
  const check = 98n - (BigInt(numeric) % 97n)
  return `DE${String(check).padStart(2, '0')}${bban}`
}

/** A fresh code goes only to a page on a configured origin (the widget's, or the example pages'). */
function returnsTo(returnUrl, allowedOrigins) {
  try {
    const url = new URL(returnUrl)
    return (url.protocol === 'http:' || url.protocol === 'https:') && !!allowedOrigins?.has(url.origin)
  } catch {
    return false
  }
}

export function fiatRoutes({ publicBase }) {
  const codes = new Map() // code → { used: boolean, issuedAt, tier }
  const accounts = new Map() // accountId → { walletId, wallet, kycStatus, approveAt, tier, name, email, virtual }
  const virtuals = new Map() // virtualAccountId → { accountId, status, deliveredAmount }
  let serial = 1000

  function onboard({ body }) {
    const b = body ?? {}
    const code = codes.get(b.authCode)
    if (typeof b.authCode !== 'string' || !code) throw partnerError('AUTH_CODE_INVALID', 'authCode: unknown or expired authorisation code; verify again')
    if (code.used) throw partnerError('AUTH_CODE_USED', 'authCode: this authorisation code was already used; verify again')
    if (Date.now() - code.issuedAt > 10 * 60_000) throw partnerError('AUTH_CODE_EXPIRED', 'authCode: the authorisation code is stale; verify again')
    const a = b.applicantInfo ?? {}
    const i = b.individual ?? {}
    if (!ISO_COUNTRY.test(a.nationality ?? '')) throw partnerError('INVALID_NATIONALITY', 'applicantInfo.nationality: must be an ISO 3166-1 alpha-2 code')
    if (!E164.test(a.phone ?? '')) throw partnerError('INVALID_PHONE_NUMBER', 'applicantInfo.phone: must be in E.164 format, like +4915112345678')
    if (typeof i.name !== 'string' || i.name.trim().length < 2) throw partnerError('INVALID_NAME', 'individual.name: required')
    if (!EMAIL.test(i.email ?? '')) throw partnerError('INVALID_EMAIL', 'individual.email: not a valid email address')
    if (!ISO_COUNTRY.test(i.country ?? '')) throw partnerError('INVALID_COUNTRY', 'individual.country: must be an ISO 3166-1 alpha-2 code')
    if (i.category !== undefined && !CATEGORIES.includes(i.category))
      throw partnerError('INVALID_CATEGORY', `individual.category: one of ${CATEGORIES.join(', ')}`)
    if (!ADDRESS.test(b.wallet ?? '')) throw partnerError('INVALID_WALLET', 'wallet: must be an EVM address')
    code.used = true
    const tier = code.tier ?? 'basic'
    if (tier === 'higher') {
      // The same applicant verified again at the higher tier: their account is raised, not doubled.
      const same = [...accounts].find(
        ([, acc]) => acc.wallet.toLowerCase() === b.wallet.toLowerCase() && acc.name === i.name && acc.email === i.email && acc.kycStatus !== 'rejected',
      )
      if (same) {
        const [accountId, acc] = same
        acc.tier = 'higher'
        return { body: { accountId, walletId: acc.walletId, kycStatus: acc.kycStatus } }
      }
    }
    const accountId = `acc_${randomBytes(6).toString('hex')}`
    const walletId = `wal_${randomBytes(6).toString('hex')}`
    // Sandbox conventions: a name containing "Pending" is approved after 4 s; "Rejected" is refused.
    const kycStatus = /rejected/i.test(i.name) ? 'rejected' : /pending/i.test(i.name) ? 'pending' : 'approved'
    accounts.set(accountId, { walletId, wallet: b.wallet, kycStatus, approveAt: Date.now() + 4_000, tier, name: i.name, email: i.email })
    return { body: { accountId, walletId, kycStatus } }
  }

  function account({ body }) {
    const b = body ?? {}
    if (typeof b.accountId !== 'string') throw new HttpError(400, 'invalid_request', 'accountId: required')
    if (typeof b.walletId !== 'string') throw new HttpError(400, 'invalid_request', 'walletId: required')
    const acc = accounts.get(b.accountId)
    if (!acc || acc.walletId !== b.walletId) throw partnerError('ACCOUNT_NOT_FOUND', 'accountId: no such account and wallet')
    if (acc.kycStatus === 'pending' && Date.now() >= acc.approveAt) acc.kycStatus = 'approved'
    if (acc.kycStatus === 'pending') throw partnerError('KYC_PENDING', 'The identity check is still pending.')
    if (acc.kycStatus === 'rejected') throw partnerError('KYC_REJECTED', 'The identity check was rejected.')
    if (!acc.virtual) {
      const id = `va_${randomBytes(6).toString('hex')}`
      const n = serial++
      acc.virtual = {
        id,
        details: {
          iban: makeIban(n),
          bankName: 'Sandbox Bank AG',
          swiftCode: 'SBXBDEFFXXX',
          accountName: 'Stablecoin Sandbox Ltd',
          reference: `SBX-${randomBytes(4).toString('hex').toUpperCase()}`,
        },
        applicationFeeBps: 100,
      }
      virtuals.set(id, { accountId: b.accountId, status: 'awaiting_deposit' })
    }
    return { body: acc.virtual }
  }

  function status({ body }) {
    const b = body ?? {}
    if (typeof b.accountId !== 'string') throw new HttpError(400, 'invalid_request', 'accountId: required')
    if (typeof b.virtualAccountId !== 'string') throw new HttpError(400, 'invalid_request', 'virtualAccountId: required')
    const v = virtuals.get(b.virtualAccountId)
    if (!v || v.accountId !== b.accountId) throw partnerError('ACCOUNT_NOT_FOUND', 'virtualAccountId: no such virtual account')
    return { body: v.status === 'funded' ? { status: 'funded', deliveredAmount: v.deliveredAmount } : { status: 'awaiting_deposit' } }
  }

  const identityPage = (
    returnUrl,
    tier,
  ) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sandbox identity provider</title><link rel="icon" href="data:,"><style>body{font-family:system-ui,sans-serif;max-width:420px;margin:2rem auto;padding:0 1rem}button{min-height:44px;width:100%;font:inherit}</style></head>
<body><main><h1>Sandbox identity provider</h1><p>Sandbox: no real identity check. Verifying issues a single-use code and sends you back.</p>
${tier === 'higher' ? '<p>You are asked for a higher verification tier: the service needs more about you for this payment.</p>' : ''}
<form method="post" action="/identity/verify"><input type="hidden" name="returnUrl" value="${returnUrl.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`)}">${tier === 'higher' ? '<input type="hidden" name="tier" value="higher">' : ''}<button type="submit">Verify my identity</button></form></main></body></html>`

  return {
    routes: {
      'POST /fiat/onboard': onboard,
      'POST /fiat/account': account,
      'POST /fiat/status': status,
      'GET /identity': ({ query, allowedOrigins }) => {
        const returnUrl = query.get('returnUrl') ?? ''
        if (!returnsTo(returnUrl, allowedOrigins)) {
          return {
            status: 400,
            html: '<!doctype html><html lang="en"><title>Bad request</title><p>returnUrl must be a page on one of the sandbox\'s configured origins.</p></html>',
          }
        }
        const tier = tierOf(query.get('tier'))
        if (!tier)
          return {
            status: 400,
            html: '<!doctype html><html lang="en"><title>Bad request</title><p>tier: the identity provider knows only tier=higher.</p></html>',
          }
        return { html: identityPage(returnUrl, tier) }
      },
      'POST /identity/verify': ({ body, allowedOrigins }) => {
        const form = new URLSearchParams(typeof body === 'string' ? body : '')
        const returnUrl = form.get('returnUrl') ?? ''
        if (!returnUrl) throw new HttpError(400, 'invalid_request', 'returnUrl: required')
        if (!returnsTo(returnUrl, allowedOrigins)) throw new HttpError(400, 'invalid_request', 'returnUrl: not on a configured origin')
        const tier = tierOf(form.get('tier'))
        if (!tier) throw new HttpError(400, 'invalid_request', 'tier: only "higher" is known')
        const code = `ac_${randomBytes(10).toString('hex')}`
        codes.set(code, { used: false, issuedAt: Date.now(), tier })
        const url = new URL(returnUrl)
        url.searchParams.set('authCode', code)
        return { redirect: url.href }
      },
    },
    control: {
      set(body) {
        if (body.fundAccount) {
          const v = virtuals.get(body.fundAccount.virtualAccountId)
          if (v) {
            v.status = 'funded'
            v.deliveredAmount = String(body.fundAccount.amount)
          }
        }
        // {"issueAuthCode": "ac_…", "issueAuthCodeTier"?: "higher"}: a code as the identity page issues it.
        if (body.issueAuthCode) codes.set(body.issueAuthCode, { used: false, issuedAt: Date.now(), tier: tierOf(body.issueAuthCodeTier) ?? 'basic' })
      },
      reset() {},
      routes: {
        'GET /__sandbox/fiat': () => ({ body: { accounts: [...accounts.entries()], virtuals: [...virtuals.entries()] } }),
      },
    },
    identityUrl: `${publicBase}/identity`,
  }
}

/**
 * An identity check still pending, or rejected: the banking partner's code passed through (400, as on
 * /fiat/account), never 422 requires_action, which the contract keeps for a higher tier
 * (docs/assumptions.md).
 */
export function identityNotApproved(kyc) {
  return kyc === 'pending'
    ? new HttpError(400, 'KYC_PENDING', "The user's identity check is still pending: try again once it is approved.")
    : new HttpError(400, 'KYC_REJECTED', "The user's identity check was rejected.")
}
