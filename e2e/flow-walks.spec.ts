// Each flow walked on the hosted page, from the link `npm start` prints to its end state, with the
// sandbox wallet (and the sandbox's identity provider, card page and bank): prints "flow: N screens,
// M clicks" and the headings in order, for issue 39's closing note. A click is a button or a link
// pressed; typing and choosing in a list are not counted.
import { expect, test } from './helpers'
import { FLOWS, Walk, walkFlow } from './flowWalks'
import { SANDBOX_ORIGIN } from './stack'
// @ts-expect-error: plain ESM module of the sandbox
import { demoUrl } from '../test/sandbox/demoUrl.mjs'

FLOWS.forEach((flow, i) => {
  test(`walk: ${flow} on the hosted page, screens and clicks from start to end @extended`, async ({ page, stack }) => {
    test.setTimeout(120_000)
    await page.goto(demoUrl(stack, `${SANDBOX_ORIGIN}/`, flow) as string)
    const w = new Walk(page, stack, false)
    try {
      await walkFlow(w, flow, stack.accounts[1 + i])
    } finally {
      console.log(`WALK ${w.summary(flow)}`)
    }
    expect(w.headings.length).toBeGreaterThan(1)
  })
})
