// @vitest-environment happy-dom
// A script on the registered parent page (the partner's own code or any third-party script there)
// sends the frame an `update` message. guest.tsx hands `message.options` to widget.update(); this
// test does the same with the widget mounted from a signed link exactly as guest.tsx mounts it: the
// amount the partner signed and locked stays.
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type RegistryEntry, resolveLink } from '../../../src/config/link'
import { mountWidget } from '../../../src/embed/mount'
import { signWidgetUrl } from '../../../src/server/sign'

const registry: RegistryEntry[] = JSON.parse(readFileSync('test/fixtures/partners.json', 'utf8'))
const privateKey = JSON.parse(readFileSync('test/fixtures/partners.private.json', 'utf8'))['acme-shop']
const WALLET = '0x1111111111111111111111111111111111111111'

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  document.body.innerHTML = ''
})

describe('a frame opened from a signed link with a locked amount', () => {
  it('keeps the amount the partner signed when the parent page sends update({ amount })', async () => {
    // Nothing reaches the network in this test.
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => {})),
    )
    const href = await signWidgetUrl(
      `https://widget.example/embed.html?partner=acme-shop&flow=card&amount=100&lockAmount=1&walletAddress=${WALLET}`,
      privateKey,
    )
    const link = await resolveLink(new URL(href).search, registry)
    if (!link.ok) throw new Error(link.detail)
    const host = document.createElement('div')
    document.body.append(host)
    const widget = mountWidget(host, link.options, { shadow: false, ownsPage: true, closable: true, emit: () => {} })
    const amountField = () => [...host.querySelectorAll('input')].find((i) => i.readOnly && /100|1/.test(i.value))
    await vi.waitFor(() => expect(amountField()?.value).toMatch(/^100(\.0+)?$/), { timeout: 4000 })

    // The parent's message: { source: 'stablecoin-widget-host', version: 1, kind: 'update', options: { amount: '1' } }
    widget.update({ amount: '1' })
    await new Promise((r) => setTimeout(r, 50))
    // Today the read-only field now shows 1: the card purchase is quoted and bought for 1, not the signed 100.
    expect(amountField()?.value).toMatch(/^100(\.0+)?$/)
    widget.unmount()
  })
})
