// @vitest-environment happy-dom
// Markup anywhere in a partner's page (a comment field, a product description) can declare a widget.
// It may choose what a buyer may choose; where money and identity go (the service's settings) comes
// only from the loader's own <script> tag, or from the partner's script (issue 28's threat model).
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BUYER_FACING, REGISTRY_ONLY, SIGNED_ONLY } from '../../../src/config/link'
import { MARKUP_OPTIONS } from '../../../src/config/params'
import { start } from '../../../src/embed/runtime'
import { createApi } from '../../../src/embed/api'

afterEach(() => {
  vi.restoreAllMocks()
  document.body.innerHTML = ''
})

/** The options each declared widget was mounted with (the widget itself is a recorder). */
function recorder() {
  const mounted: Array<Record<string, unknown>> = []
  const runtime = {
    mountWidget: (_el: HTMLElement, options: Record<string, unknown>) => {
      mounted.push(options)
      return { update() {}, unmount() {} }
    },
  }
  return { mounted, load: () => Promise.resolve(runtime) }
}

const html = (markup: string) => {
  const box = document.createElement('div')
  box.innerHTML = markup
  document.body.append(box)
  return box.firstElementChild as HTMLElement
}
const EVIL = 'https://evil.example'
const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('a widget declared in markup', () => {
  it("takes the service's settings from the loader's own tag, the buyer's choices from the element, and warns by name of each service setting the element tried", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const loader = html(
      `<script src="https://cdn.example/w/stablecoin-widget.js" integrity="sha384-x" crossorigin="anonymous" data-api-base="https://api.example" data-partner-base="https://shop.example/api" data-card-hosts="pay.example,pay2.example" data-reference="order-42" data-theme="dark"></script>`,
    ) as HTMLScriptElement
    const { mounted, load } = recorder()
    const runtime = start(loader, () => load().then((r) => [r] as never))
    const div = html(
      `<div data-stablecoin-widget data-flow="card" data-amount="50" data-api-base="${EVIL}/api" data-partner-base="${EVIL}/partner" card-hosts="evil.example" class="x" id="y" aria-label="Pay"></div>`,
    )
    runtime.element.connect(div)
    await tick()
    expect(mounted).toEqual([
      {
        apiBase: 'https://api.example',
        partnerBase: 'https://shop.example/api',
        cardHosts: ['pay.example', 'pay2.example'],
        reference: 'order-42',
        theme: 'dark',
        flow: 'card',
        amount: '50',
      },
    ])
    const said = warn.mock.calls.map((c) => String(c[0]))
    for (const name of ['apiBase', 'partnerBase', 'cardHosts']) expect(said.some((s) => s.startsWith(`[stablecoin-widget] ${name}`))).toBe(true)
    expect(said).toHaveLength(3)
  })

  it('takes no service setting, signed option or return address from its own attributes, in either spelling', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const refused = [...REGISTRY_ONLY, ...SIGNED_ONLY, 'parentOrigins', 'returnOrigins', 'publicKey', 'returnUrl', 'lockAmount', 'parentOrigin']
    const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
    const { mounted, load } = recorder()
    const api = createApi(load, () => new URL('https://cdn.example/embed.html'), {})
    const attrs = refused.flatMap((name, i) => [`${kebab(name)}="1"`, `data-${kebab(name)}="${i}"`]).join(' ')
    api.element.connect(html(`<stablecoin-widget flow="deposit" ${attrs}></stablecoin-widget>`))
    api.element.connect(html(`<div data-stablecoin-widget data-flow="deposit" ${attrs}></div>`))
    await tick()
    expect(mounted).toEqual([{ flow: 'deposit' }, { flow: 'deposit' }])
  })

  it("leaves the amount the loader's tag locks to that tag: markup's own amount is refused by name", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { mounted, load } = recorder()
    const api = createApi(load, () => new URL('https://cdn.example/embed.html'), { apiBase: 'https://api.example', amount: '25', lockAmount: true })
    // Injected beside the partner's own widget: it would show its 950 as the amount the partner fixed.
    api.element.connect(html(`<div data-stablecoin-widget data-flow="card" data-amount="950"></div>`))
    api.element.connect(html(`<stablecoin-widget flow="card" amount="950"></stablecoin-widget>`))
    await tick()
    expect(mounted).toEqual([
      { apiBase: 'https://api.example', amount: '25', lockAmount: true, flow: 'card' },
      { apiBase: 'https://api.example', amount: '25', lockAmount: true, flow: 'card' },
    ])
    expect(warn.mock.calls.filter((c) => String(c[0]).startsWith('[stablecoin-widget] amount'))).toHaveLength(2)
  })

  it('keeps the options a buyer may choose', async () => {
    const { mounted, load } = recorder()
    const api = createApi(load, () => new URL('https://cdn.example/embed.html'), { apiBase: 'https://api.example' })
    api.element.connect(
      html(
        `<stablecoin-widget flow="card" amount="5" locale="de" theme="dark" brand='{"color":"#0a7d4f"}' currencies="EUR,USD" card-crypto="ETH" auth-code="abc" closable></stablecoin-widget>`,
      ),
    )
    await tick()
    expect(mounted).toEqual([
      {
        apiBase: 'https://api.example',
        flow: 'card',
        amount: '5',
        locale: 'de',
        theme: 'dark',
        brand: { color: '#0a7d4f' },
        currencies: ['EUR', 'USD'],
        cardCrypto: 'ETH',
        authCode: 'abc',
        closable: true,
      },
    ])
  })

  it('markup chooses only among the options any link may choose (buyer-facing), never a service or signed one', () => {
    for (const name of MARKUP_OPTIONS) expect([...BUYER_FACING, 'closable']).toContain(name)
    for (const name of [...REGISTRY_ONLY, ...SIGNED_ONLY, 'returnUrl', 'lockAmount']) expect(MARKUP_OPTIONS).not.toContain(name)
  })
})

describe("the loader's own tag", () => {
  it('gives its data- attributes only (not its src, integrity or other attributes), and mount() from script keeps every option it is given', async () => {
    const loader = html(
      `<script src="https://cdn.example/w/stablecoin-widget.js" integrity="sha384-x" async data-api-base="https://api.example"></script>`,
    ) as HTMLScriptElement
    const { mounted, load } = recorder()
    const runtime = start(loader, () => load().then((r) => [r] as never))
    runtime.element.connect(html(`<div data-stablecoin-widget></div>`))
    runtime.mount(html('<div></div>'), { apiBase: 'https://other.example', partnerBase: 'https://shop.example/api' })
    await tick()
    expect(mounted).toEqual([{ apiBase: 'https://api.example' }, { apiBase: 'https://other.example', partnerBase: 'https://shop.example/api' }])
  })
})
