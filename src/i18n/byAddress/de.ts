// Paying by address in de: every key of its English part (the catalogs test checks).
import type { ByAddressKey } from './en'

export const byAddressDe: Record<ByAddressKey, string> = {
  'byAddress.heading': 'Von einer anderen Wallet oder einer Börse senden',
  'byAddress.intro':
    'Senden Sie den folgenden Betrag genau so von einer beliebigen Wallet oder einem Börsenkonto. Wir beobachten die Chain und verfolgen die Einzahlung, sobald Ihre Überweisung ankommt.',
  'byAddress.receiver': 'Ihre Adresse, um {token} auf {chain} zu erhalten',
  'byAddress.receiverHint': 'Die Einzahlung wird an diese Adresse geliefert.',
  'byAddress.receiverFixed': 'Geliefert als {token} auf {chain} an {address}, wie von der Website festgelegt.',
  'byAddress.receiverInvalid': 'Geben Sie eine Adresse ein: 0x gefolgt von 40 Hexadezimalzeichen.',
  'byAddress.receiverSite':
    'Die Einzahlung geht an diese Website, nicht an eine Adresse von Ihnen, daher wird keine abgefragt: Sie zählt als Ihre Einzahlung auf Ihrem Konto hier.',
  'byAddress.refund':
    'Läuft die Einzahlung ab, erstattet der Routing-Dienst sie automatisch, doch wohin die Erstattung geht, können wir nicht zusagen: Eine Börse schreibt sie Ihrem Konto möglicherweise nicht gut. Bewahren Sie Ihre Transaktion auf und wenden Sie sich damit an den Shop, wenn die Erstattung nicht bei Ihnen ankommt.',
  'byAddress.kit':
    'Diese Website gibt die Einzahlungsadresse dem Konto, mit dem Sie dort angemeldet sind, und ordnet sie Ihnen zu: Eine Überweisung genau des angezeigten Betrags an diese Adresse zählt als Ihre Einzahlung, egal von welcher Wallet oder Börse sie kommt.',
  'byAddress.kitWatch':
    'Diese Adresse wurde Ihrem Konto auf dieser Website zugeordnet: Eine Überweisung genau dieses Betrags an sie zählt hier als Ihre Einzahlung, von jeder Wallet oder Börse. Zieht Ihre Börse ihre Gebühr vom Betrag ab, rechnen Sie sie hinzu, damit genau dieser Betrag ankommt.',
  'byAddress.submit': 'Adresse anzeigen',
  'byAddress.loading': 'Einzahlungsadresse wird abgerufen…',
  'byAddress.connectInstead': 'Stattdessen eine Wallet verbinden',
  'byAddress.refused.approval':
    'Dieser Preis erfordert eine Freigabe durch die zahlende Wallet und kann daher nicht mit einer einfachen Überweisung bezahlt werden. Es wurde nichts gesendet. Verbinden Sie stattdessen eine Wallet.',
  'byAddress.refused.call':
    'Dieser Preis erfordert einen Vertragsaufruf durch die zahlende Wallet, keine einfache Überweisung, und kann daher nicht von einer anderen Wallet oder einer Börse bezahlt werden. Es wurde nichts gesendet. Verbinden Sie stattdessen eine Wallet.',
  'byAddress.refused.amount':
    'Die Überweisung in diesem Preis entspricht nicht genau dem gewünschten Betrag und wird daher nicht angeboten. Es wurde nichts gesendet.',
  'byAddress.refused.chain': 'Dieser Preis gilt für ein anderes Netzwerk als das gewählte und wird daher nicht angeboten. Es wurde nichts gesendet.',
  'byAddress.refused.spent':
    'Der Dienst hat eine Adresse genannt, die hier schon einmal angeboten wurde. Eine Adresse wird nie zweimal angeboten: Versuchen Sie es später erneut oder verbinden Sie eine Wallet.',
  'byAddress.refused.unreadable':
    'Diese Seite kann das Netzwerk nicht lesen, um Ihre Überweisung zu sehen, daher wird die Zahlung an eine Adresse hier nicht angeboten. Verbinden Sie stattdessen eine Wallet.',
  'byAddress.sendHeading': 'Senden Sie genau {amount} {token}',
  'byAddress.amount': 'Betrag',
  'byAddress.token': '{token}-Token-Vertrag',
  'byAddress.chain': 'Netzwerk',
  'byAddress.address': 'Einzahlungsadresse',
  'byAddress.exact':
    'Eine Überweisung von genau diesem Betrag in {token}, nur auf {chain}. Ein anderer Betrag oder ein anderer Token wird hier nicht verfolgt, ebenso wenig eine Überweisung in einem anderen Netzwerk, die möglicherweise nicht zurückgeholt werden kann.',
  'byAddress.qr': 'QR-Code dieser Zahlungsanforderung für eine Wallet-App: {amount} {token} auf {chain} an die Einzahlungsadresse',
  'byAddress.request': 'Zahlungsanforderung (EIP-681)',
  'byAddress.expiresIn': 'Senden Sie innerhalb von {time}: Der Preis gilt bis {at}.',
  'byAddress.expired':
    'Dieser Preis ist um {at} abgelaufen: Senden Sie jetzt nichts an diese Adresse. Wenn Sie vorher gesendet haben, lassen Sie diese Seite offen: Wir beobachten weiter, ob Ihre Überweisung ankommt.',
  'byAddress.newQuote': 'Ich habe nichts gesendet: neuen Preis abrufen',
  'byAddress.watching':
    'Wir beobachten {chain} auf Ihre Überweisung… Sie können diese Seite verlassen und zurückkehren: Die Beobachtung wird hier fortgesetzt.',
  'byAddress.stray':
    'Eine Überweisung von {amount} {token} ist an dieser Adresse angekommen (Transaktion {hash}). Sie entspricht nicht dem verlangten Betrag und wird hier nicht verfolgt: Wenden Sie sich mit dieser Transaktion an die Website.',
  'byAddress.strayToken':
    'Eine Überweisung eines anderen Tokens ({token}) ist an dieser Adresse angekommen (Transaktion {hash}). Sie wird hier nicht verfolgt: Wenden Sie sich mit dieser Transaktion an die Website.',
  'walletApps.heading': 'In Ihrer Wallet-App öffnen',
  'walletApps.body': 'Öffnet dieselbe Seite im Browser Ihrer Wallet-App, wo sich Ihre Wallet verbindet.',
  'walletApps.carries':
    'Der Link enthält die Adresse dieser Seite unverändert: die Website, den Betrag und die Signatur der Website, die dort erneut geprüft wird. Er enthält nie ein Anmelde-Token: Melden Sie sich dort an, falls Sie dazu aufgefordert werden.',
  'walletApps.open': 'In {wallet} öffnen',
}
