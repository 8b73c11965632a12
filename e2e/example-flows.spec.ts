// "A fresh clone's `npm start` lets a newcomer finish every flow from every example page without a
// dead end" (issue 39): from each example page that offers a flow (script, element, markup and csp
// mount the widget in the partner's page; hosted links to the full page; the Payments page opens the
// shop's page in a new tab), each flow it offers (?flow=…, as `npm start` says) is walked to its end
// state with the sandbox: its wallet, identity provider, card page and bank. No wallet in the
// browser: the sandbox's test wallet is the one offered. One case runs in `npm test`; its family
// (every page × every flow) is @extended (e2e/example-pages.spec.ts keeps the csp deposit and the
// Payments page's cash-out in `npm test` too).
import type { Page } from '@playwright/test'
import { expect, test } from './helpers'
import { FLOWS, type Flow, Walk, walkFlow } from './flowWalks'
import type { StackConfig } from './stack'

const example = (stack: StackConfig, mode: string, query: Record<string, string> = {}) => `${stack.apiBase}/examples/${mode}.html?${new URLSearchParams(query)}`
const FIRST = 'script:card'
// Each walk delivers to a wallet of its own (the sandbox wallet pays: anvil's account 9).
const receiver = (stack: StackConfig, i: number) => stack.accounts[1 + (i % 8)]

/** Console errors and page errors a newcomer would see in the devtools. */
function errorsOf(page: Page) {
  const seen: string[] = []
  page.on('pageerror', (e) => seen.push(String(e)))
  page.on('console', (m) => m.type() === 'error' && seen.push(m.text()))
  // A resource that failed, by its address (the console names none; a favicon's request is not seen here).
  page.on('response', (r) => r.status() >= 400 && seen.push(`${r.status()} ${r.url()}`))
  return seen
}

const MODES = ['script', 'element', 'markup', 'csp', 'hosted'] as const
MODES.forEach((mode, m) => {
  FLOWS.forEach((flow, f) => {
    const name = `${mode}:${flow}`
    test(`${mode} page, ?flow=${flow}: finishes to "${flow}"'s end state with the sandbox${name === FIRST ? '' : ' @extended'}`, async ({ page, stack }) => {
      test.setTimeout(120_000)
      const errors = errorsOf(page)
      await page.goto(example(stack, mode, { flow }))
      const w = new Walk(page, stack, mode !== 'hosted')
      try {
        if (mode === 'hosted') await w.click(page.getByRole('link', { name: 'Pay with stablecoins' }))
        await walkFlow(w, flow, receiver(stack, m * FLOWS.length + f))
      } finally {
        console.log(`${mode} page — ${w.summary(flow)}`)
      }
      expect(errors).toEqual([])
    })
  })
})

const PAYMENTS: Array<[string, Flow]> = [
  ['by card', 'card'],
  ['by bank transfer', 'bankDeposit'],
  ['cash out to a bank', 'payout'],
]
PAYMENTS.forEach(([link, flow], i) => {
  test(`the Payments page's "${link}" link: the shop's page opens and the ${flow} finishes @extended`, async ({ page, context, stack }) => {
    test.setTimeout(120_000)
    await page.goto(`${stack.apiBase}/examples/payments.html?user=alice`)
    const [shop] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: link }).click()])
    const errors = errorsOf(shop)
    const w = new Walk(shop, stack, true)
    try {
      await walkFlow(w, flow, receiver(stack, 40 + i))
    } finally {
      console.log(`Payments page — ${w.summary(flow)}`)
    }
    expect(errors).toEqual([])
  })
})
