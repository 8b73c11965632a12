// ISO 3166-1 alpha-2, with names from Intl.DisplayNames in the buyer's locale (no data tables).
// Grouped by first letter: "ADEF…" stands for AD AE AF….
const CODES =
  'ADEFGILMOQRSTUWXZ BABDEFGHIJLMNOQRSTVWYZ CACDFGHIKLMNORUVWXYZ DEJKMOZ ECEGHRST FIJKMOR GABDEFGHILMNPQRSTUWY HKMNRTU IDELMNOQRST JEMOP KEGHIMNPRWYZ LABCIKRSTUVY MACDEFGHKLMNOPQRSTUVWXYZ NACEFGILOPRUZ OM PAEFGHKLMNRSTWY QA REOSUW SABCDEGHIJKLMNORSTVXYZ TCDFGHJKLMNORTVWZ UAGMSYZ VACEGINU WFS YET ZAMW'

export const countryCodes: readonly string[] = CODES.split(' ').flatMap(([first, ...seconds]) => seconds.map((second) => first + second))

export function isCountryCode(value: string): boolean {
  return countryCodes.includes(value)
}

/** [code, name] pairs sorted by name in the locale. */
export function countryOptions(locale: string): Array<[string, string]> {
  let names: Intl.DisplayNames | undefined
  try {
    names = new Intl.DisplayNames([locale], { type: 'region' })
  } catch {
    names = undefined
  }
  return countryCodes.map((code): [string, string] => [code, names?.of(code) ?? code]).sort((a, b) => a[1].localeCompare(b[1], locale))
}
