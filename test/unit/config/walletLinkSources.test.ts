// @vitest-environment happy-dom
// Who can set or unset `walletLink`, tried every way a link, a kept link, a frame's parent or markup
// could: hosted page and frame, only the operator's registry entry; script mode, only the page's own
// options (the loader's own <script> tag, or the partner's script), as partnerBase, and never
// without partnerBase.
import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
// @ts-expect-error: plain ESM build script
import { parseRegistry } from '../../../scripts/registry.mjs'
import { parseOptions } from '../../../src/config/config'
import { parseLiveOptions } from '../../../src/config/live'
import { type RegistryEntry, resolveLink } from '../../../src/config/link'
import { VERIFIED_LINK_KEY, readPageLink } from '../../../src/config/pageLink'
import { createApi } from '../../../src/embed/api'
import { start } from '../../../src/embed/runtime'
import { registry, signed } from '../helpers/links'

const entry = registry[0]
const ON: RegistryEntry[] = [{ ...entry, walletLink: true }]
const OFF: RegistryEntry[] = [{ ...entry }]
const NOW = Date.UTC(2026, 10, 23, 12)

/** The walletLink a hosted page or frame would run with, or the refusal's code. */
async function outcome(search: string, entries: RegistryEntry[]): Promise<boolean | string> {
  const link = await resolveLink(search, entries, NOW)
  if (!link.ok) return link.code
  const parsed = parseOptions(link.options)
  if (!parsed.ok) return `bad: ${parsed.problem}`
  return parsed.config.walletLink
}

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  vi.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(() => {
  vi.restoreAllMocks()
  document.body.innerHTML = ''
  sessionStorage.clear()
})

describe('hosted page / iframe: the URL cannot set or unset walletLink', () => {
  // A spelling the link check misses must not reach the config either (it is dropped, not honoured).
  it.each([
    'walletLink=1',
    'walletLink=0',
    'walletLink=',
    'walletLink',
    'wallet%4Cink=1',
    'wallet%4Cink=0',
    '%77alletLink=0',
    'walletlink=0',
    'WalletLink=0',
    'walletLink%20=0',
    'walletLink[]=0',
    'walletLink.=0',
    'wallet-link=0',
    'wallet_link=0',
  ])('an unsigned link with %s neither turns it on (entry off) nor off (entry on)', async (pair) => {
    const off = await outcome(`?partner=acme-shop&flow=deposit&${pair}`, OFF)
    const on = await outcome(`?partner=acme-shop&flow=deposit&${pair}`, ON)
    expect(off === false || off === 'forbidden_option', `entry off, ${pair}: ${off}`).toBe(true)
    expect(on === true || on === 'forbidden_option', `entry on, ${pair}: ${on}`).toBe(true)
  })

  it('a link the partner signed, with walletLink (any spelling), cannot change the entry either', async () => {
    const exp = NOW / 1000 + 600
    for (const pair of ['walletLink=0', 'walletLink=1', 'wallet%4Cink=0', 'walletlink=0']) {
      const search = await signed(`partner=acme-shop&flow=deposit&${pair}&expires=${exp}`)
      const on = await outcome(search, ON)
      const off = await outcome(search, OFF)
      expect(on === true || on === 'forbidden_option', `signed ${pair}, entry on: ${on}`).toBe(true)
      expect(off === false || off === 'forbidden_option', `signed ${pair}, entry off: ${off}`).toBe(true)
    }
  })

  it("a stored record (the tab's kept verified link) carrying walletLink=0 does not turn off an entry's walletLink", async () => {
    history.replaceState(null, '', '/?partner=acme-shop&flow=deposit')
    const bare = 'partner=acme-shop&flow=deposit'
    sessionStorage.setItem(VERIFIED_LINK_KEY + bare, `${bare}&walletLink=0`)
    const link = await readPageLink(ON, sessionStorage)
    if (link.ok) expect(parseOptions(link.options)).toMatchObject({ ok: true, config: { walletLink: true } })
    else expect(link.code).toBe('forbidden_option')
    // And the return pairs a kept link is joined with cannot carry it (authCode is one).
    sessionStorage.clear()
    sessionStorage.setItem(VERIFIED_LINK_KEY + bare, bare)
    history.replaceState(null, '', `/?${bare}&authCode=abc%26walletLink%3D0`)
    const back = await readPageLink(ON, sessionStorage)
    if (back.ok) expect(parseOptions(back.options)).toMatchObject({ ok: true, config: { walletLink: true } })
  })

  it("a frame's parent (postMessage update / theme) cannot turn it off or on", () => {
    for (const update of [{ walletLink: false }, { walletLink: true }, { amount: '1', walletLink: false }, { theme: 'dark', walletLink: 0 }]) {
      expect(parseLiveOptions(update as Record<string, unknown>).ok, JSON.stringify(update)).toBe(false)
    }
  })
})

describe('script mode: only the page’s own options, as partnerBase', () => {
  const html = (markup: string) => {
    const box = document.createElement('div')
    box.innerHTML = markup
    document.body.append(box)
    return box.firstElementChild as HTMLElement
  }
  function recorder() {
    const mounted: Array<Record<string, unknown>> = []
    const runtime = { mountWidget: (_el: HTMLElement, options: Record<string, unknown>) => (mounted.push(options), { update() {}, unmount() {} }) }
    return { mounted, load: () => Promise.resolve(runtime) }
  }
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

  it("injected markup (<stablecoin-widget>, data-* on a declared div) cannot unset the loader tag's walletLink, nor set one the tag did not", async () => {
    const tag = html(
      `<script src="https://cdn.example/w/stablecoin-widget.js" data-api-base="https://api.example" data-partner-base="https://shop.example/api" data-wallet-link="1"></script>`,
    ) as HTMLScriptElement
    const a = recorder()
    const withTag = start(tag, () => a.load().then((r) => [r] as never))
    for (const markup of [
      `<stablecoin-widget flow="deposit" wallet-link="0" data-wallet-link="0" walletlink="0"></stablecoin-widget>`,
      `<div data-stablecoin-widget data-flow="deposit" data-wallet-link="0" data-walletlink="0" wallet-link="false"></div>`,
    ])
      withTag.element.connect(html(markup))
    await tick()
    expect(a.mounted.map((o) => o.walletLink)).toEqual([true, true])

    const b = recorder()
    const noFlag = createApi(b.load, () => new URL('https://cdn.example/embed.html'), {
      apiBase: 'https://api.example',
      partnerBase: 'https://shop.example/api',
    })
    noFlag.element.connect(html(`<stablecoin-widget flow="deposit" wallet-link="1" data-wallet-link="1"></stablecoin-widget>`))
    noFlag.element.connect(html(`<div data-stablecoin-widget data-flow="deposit" data-wallet-link=""></div>`))
    await tick()
    expect(b.mounted.map((o) => o.walletLink)).toEqual([undefined, undefined])
  })

  it('an attribute change on a declared widget (the observed ones) carries no walletLink into update()', async () => {
    const updates: Array<Record<string, unknown>> = []
    const runtime = { mountWidget: () => ({ update: (o: Record<string, unknown>) => updates.push(o), unmount() {} }) }
    const api = createApi(
      () => Promise.resolve(runtime as never),
      () => new URL('https://cdn.example/embed.html'),
      { apiBase: 'https://api.example', walletLink: true },
    )
    const el = html(`<stablecoin-widget flow="deposit"></stablecoin-widget>`)
    api.element.connect(el)
    await tick()
    // What the browser would call for an observed attribute; each update is checked by parseLiveOptions.
    api.element.attribute(el, 'data-amount', '5')
    for (const u of updates) expect(parseLiveOptions(u).ok && !('walletLink' in u)).toBe(true)
  })

  it('iframe() mode: a page option walletLink goes to the frame URL, which the frame refuses (the registry decides there)', async () => {
    const frames: HTMLIFrameElement[] = []
    const api = createApi(
      () => Promise.reject(new Error('unused')),
      () => new URL('https://widget.example/embed.html'),
      {},
    )
    // Not in the document: the frame is built but not loaded (happy-dom loads no frame pages).
    const host = document.createElement('div')
    api.iframe(host, { partner: 'acme-shop', flow: 'deposit', walletLink: false })
    frames.push(host.querySelector('iframe')!)
    const search = new URL(frames[0].src).search
    expect(await outcome(search, ON)).toBe('forbidden_option')
  })

  it("parseOptions takes only a literal true (a loader tag's 1/''/true) and nothing a string or object could smuggle", () => {
    const base = { apiBase: 'https://api.example', partnerBase: 'https://shop.example/api' }
    for (const v of ['true', '1', 1, {}, [], 'yes']) expect(parseOptions({ ...base, walletLink: v })).toMatchObject({ ok: true, config: { walletLink: false } })
    // A hosted page's options always carry the entry's own walletLink (an own property, never inherited).
  })

  // The build stops an entry with walletLink and no partnerBase; a page's options are held to the
  // same: accepted, its deposit would ask no one and send unlinked.
  it('script mode refuses walletLink without partnerBase, as the build does for an entry', () => {
    const result = parseOptions({ apiBase: 'https://api.example', walletLink: true })
    expect(result, 'parseOptions accepted walletLink: true without partnerBase').toEqual({ ok: false, problem: 'partnerBase: required for walletLink' })
    // A flow's own need is named first, as before.
    expect(parseOptions({ apiBase: 'https://api.example', flow: 'card', walletLink: true })).toEqual({
      ok: false,
      problem: 'partnerBase: required for the card flow',
    })
    expect(parseOptions({ apiBase: 'https://api.example', walletLink: false })).toMatchObject({ ok: true, config: { walletLink: false } })
  })
})

describe("the build's registry check", () => {
  const parse = (change: object) => () => parseRegistry([{ ...entry, ...change }], 'partners.json')
  it('holds for walletLink without partnerBase, in every shape the file could give', () => {
    const { partnerBase: _drop, ...noBase } = entry
    expect(() => parseRegistry([{ ...noBase, walletLink: true }], 'p')).toThrow(/walletLink: needs partnerBase/)
    expect(parse({ walletLink: true, partnerBase: undefined })).toThrow(/walletLink: needs partnerBase/)
    expect(parse({ walletLink: true, partnerBase: null })).toThrow()
    expect(parse({ walletLink: true, partnerBase: '' })).toThrow()
    for (const v of ['true', 1, 'yes', null, {}]) expect(parse({ walletLink: v }), String(v)).toThrow()
    // Production: partnerBase must be https, walletLink or not.
    expect(parse({ walletLink: true, partnerBase: 'http://shop.acme.test/api' })).toThrow(/https/)
  })
})
