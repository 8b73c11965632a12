// Issue 15, item 4: a prefilled amount is canonical (a dot) and shown with the locale's mark, so a
// locked German amount is not refused on submit.
import { expect, test } from './helpers'
import { type StackConfig, sandbox, stackConfig, widgetUrl } from './stack'
import { TestWallet } from './testWallet'

let stack: StackConfig
test.beforeAll(() => {
  stack = stackConfig()
})

test('deposit: amount=25.50&locale=de&lockAmount=1 shows 25,50 and quotes exactly 25.5 @extended', async ({ page }) => {
  await TestWallet.forStack(stack, 2).install(page)
  const quotes: string[] = []
  page.on('request', (r) => r.url().endsWith('/deposit/quote') && r.method() === 'POST' && quotes.push(JSON.parse(r.postData() ?? '{}').amount))
  await page.goto(widgetUrl(stack, { amount: '25.50', locale: 'de', lockAmount: '1' }))
  await page.getByRole('button', { name: 'Test Wallet' }).click()
  const field = page.getByLabel('Betrag')
  await expect(field).toHaveValue('25,50')
  await page.getByRole('button', { name: /Preis/ }).click()
  await expect.poll(() => quotes).toEqual(['25.5'])
})
