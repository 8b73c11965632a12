// Issue 28, item 8: the production build offers a partner's flows only. The test registry's
// production entry names none, so it offers every flow but the virtual account (onboarding), for
// which no production account stands behind the service yet.
import { expect, test } from './helpers'
import { PROD_ORIGIN } from './stack'

for (const page_ of ['/', '/embed.html']) {
  test(`${page_}: a link to the virtual account does not start, and nothing of that flow is drawn${page_ === '/' ? '' : ' @extended'}`, async ({ page }) => {
    const errors: string[] = []
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    await page.goto(`${PROD_ORIGIN}${page_}?partner=acme-shop&flow=onboarding`)
    await expect(page.getByRole('heading', { name: 'This payment link is not valid', level: 1 })).toBeVisible()
    await expect(page.getByRole('button')).toHaveCount(0)
    expect(errors.join('\n')).toContain('flow: onboarding is not offered by partner "acme-shop"')
  })
}

test('the start screen lists the partner’s flows, without the virtual account @extended', async ({ page }) => {
  await page.goto(`${PROD_ORIGIN}/?partner=acme-shop`)
  await expect(page.getByRole('heading', { name: 'What would you like to do?' })).toBeVisible()
  await expect(page.getByRole('button', { name: /Deposit crypto/ })).toBeVisible()
  await expect(page.getByRole('button', { name: /^Bank transfer/ })).toHaveCount(0)
})
