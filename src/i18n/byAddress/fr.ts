// Paying by address in fr: every key of its English part (the catalogs test checks).
import type { ByAddressKey } from './en'

export const byAddressFr: Record<ByAddressKey, string> = {
  'byAddress.heading': "Envoyer depuis un autre wallet ou une plateforme d'échange",
  'byAddress.intro':
    "Envoyez exactement le montant indiqué ci-dessous depuis n'importe quel wallet ou compte de plateforme d'échange. Nous surveillons la chaîne et suivons le dépôt dès que votre virement arrive.",
  'byAddress.receiver': 'Votre adresse pour recevoir {token} sur {chain}',
  'byAddress.receiverHint': 'Le dépôt est livré à cette adresse.',
  'byAddress.receiverFixed': 'Livré en {token} sur {chain} à {address}, comme le site l’a fixé.',
  'byAddress.receiverInvalid': 'Saisissez une adresse : 0x suivi de 40 caractères hexadécimaux.',
  'byAddress.receiverSite':
    'Le dépôt est versé à ce site, pas à une adresse à vous, donc aucune n’est demandée : il compte comme votre dépôt sur votre compte ici.',
  'byAddress.refund':
    "Si le dépôt expire, le service de routage le rembourse automatiquement, mais nous ne pouvons pas promettre où va le remboursement : une plateforme d'échange peut ne pas le créditer sur votre compte. Gardez votre transaction et contactez la boutique avec elle si le remboursement ne vous parvient pas.",
  'byAddress.kit':
    "Ce site attribue l'adresse de dépôt au compte avec lequel vous y êtes connecté et la garde comme la vôtre : un virement d'exactement le montant indiqué vers cette adresse compte comme votre dépôt, quel que soit le wallet ou la plateforme d'échange qui l'envoie.",
  'byAddress.kitWatch':
    "Cette adresse a été attribuée à votre compte sur ce site : un virement d'exactement ce montant vers elle compte ici comme votre dépôt, depuis n'importe quel wallet ou plateforme d'échange. Si votre plateforme déduit ses frais du montant, ajoutez-les pour qu'arrive exactement ce montant.",
  'byAddress.submit': "Afficher l'adresse",
  'byAddress.loading': "Récupération de l'adresse de dépôt…",
  'byAddress.connectInstead': 'Connecter plutôt un wallet',
  'byAddress.refused.approval':
    "Ce prix demande une autorisation du wallet qui paie : il ne peut donc pas être payé par un simple virement. Rien n'a été envoyé. Connectez un wallet pour payer.",
  'byAddress.refused.call':
    "Ce prix demande un appel de contrat depuis le wallet qui paie, pas un simple virement : il ne peut donc pas être payé depuis un autre wallet ou une plateforme d'échange. Rien n'a été envoyé. Connectez un wallet pour payer.",
  'byAddress.refused.amount': "Le virement de ce prix n'est pas exactement le montant demandé : il n'est donc pas proposé. Rien n'a été envoyé.",
  'byAddress.refused.chain': "Ce prix est pour un autre réseau que celui choisi : il n'est donc pas proposé. Rien n'a été envoyé.",
  'byAddress.refused.spent':
    "Le service a donné une adresse déjà proposée ici une fois. Une adresse n'est jamais proposée deux fois : réessayez plus tard ou connectez un wallet.",
  'byAddress.refused.unreadable':
    "Cette page ne peut pas lire le réseau pour voir arriver votre virement : le paiement à une adresse n'est donc pas proposé ici. Connectez plutôt un wallet.",
  'byAddress.sendHeading': 'Envoyez exactement {amount} {token}',
  'byAddress.amount': 'Montant',
  'byAddress.token': 'Contrat du jeton {token}',
  'byAddress.chain': 'Réseau',
  'byAddress.address': 'Adresse de dépôt',
  'byAddress.exact':
    "Un seul virement d'exactement ce montant en {token}, sur {chain} uniquement. Un autre montant ou un autre jeton n'est pas suivi ici, ni un virement sur un autre réseau, qui pourrait ne pas être récupérable.",
  'byAddress.qr': "QR code de cette demande de paiement pour une app de wallet : {amount} {token} sur {chain} vers l'adresse de dépôt",
  'byAddress.request': 'Demande de paiement (EIP-681)',
  'byAddress.expiresIn': "Envoyez d'ici {time} : le prix est garanti jusqu'à {at}.",
  'byAddress.expired':
    "Ce prix a expiré à {at} : n'envoyez rien à cette adresse maintenant. Si vous avez envoyé avant, gardez cette page ouverte : nous continuons à surveiller votre virement.",
  'byAddress.newQuote': "Je n'ai rien envoyé : obtenir un nouveau prix",
  'byAddress.watching': 'Surveillance de {chain} en attente de votre virement… Vous pouvez quitter cette page et y revenir : la surveillance reprend ici.',
  'byAddress.stray':
    "Un virement de {amount} {token} est arrivé à cette adresse (transaction {hash}). Ce n'est pas le montant demandé, il n'est donc pas suivi ici : contactez le site avec cette transaction.",
  'byAddress.strayToken':
    "Un virement d'un autre jeton ({token}) est arrivé à cette adresse (transaction {hash}). Il n'est pas suivi ici : contactez le site avec cette transaction.",
  'walletApps.heading': 'Ouvrir dans votre app de wallet',
  'walletApps.body': 'Ouvre cette même page dans le navigateur de votre app de wallet, où votre wallet se connecte.',
  'walletApps.carries':
    "Le lien porte l'adresse de cette page telle quelle : le site, le montant et la signature du site, vérifiée à nouveau là-bas. Il ne porte jamais de jeton de connexion : connectez-vous là-bas si on vous le demande.",
  'walletApps.open': 'Ouvrir dans {wallet}',
}
