// The partner's door as services.partner builds it from the config: its code fetched when first asked
// (after a test's fetch stub), one client per call here.
import type { WidgetConfig } from '../../../src/config/config'

export const partnerDoor = (config: Pick<WidgetConfig, 'partnerBase' | 'partnerToken' | 'partnerCookies'>) => () =>
  import('../../../src/api/partnerHttp').then(({ createPartnerHttp }) =>
    createPartnerHttp({ base: config.partnerBase ?? '', token: config.partnerToken, cookies: config.partnerCookies }),
  )
