/** French. A narrow no-break space stands before "?" as French typography wants, so it never starts a line. */
import type { PageMessages } from '../../types/page-messages.js'

export const fr: PageMessages = {
  signInTitle: 'Connexion',
  signInWith: 'Se connecter avec {provider}',
  emailLabel: 'Adresse e-mail pour un lien de connexion',
  passkeyEmailLabel: 'Adresse e-mail de votre clé d’accès',
  emailPlaceholder: 'nom@example.com',
  passkeyFailed: 'La connexion avec la clé d’accès n’a pas abouti. Réessayez.',
  signOutTitle: 'Déconnexion',
  signOutQuestion: 'Voulez-vous vraiment vous déconnecter\u202f?',
  signOutButton: 'Se déconnecter',
  verifyRequestTitle: 'Consultez vos e-mails',
  verifyRequestText: 'Un lien de connexion a été envoyé à votre adresse e-mail.',
  homeLink: 'Accueil',
  signInLink: 'Se connecter',
  emailConfirmTitle: 'Terminer la connexion',
  emailConfirmAs: 'Connexion en tant que {email}.',
  emailConfirmButton: 'Se connecter',
  unavailableTitle: 'Réessayez dans un instant',
  unavailableText: 'La connexion est momentanément indisponible. Veuillez réessayer dans quelques instants.',
  unavailableRestartText:
    'Cette connexion ne peut pas être terminée maintenant ; recommencez-la dès que le service est rétabli.',
  unknownProviderTitle: 'Fournisseur de connexion inconnu',
  unknownProviderText:
    'Cette adresse désigne un fournisseur qui n’est pas configuré. Identifiants de fournisseur connus : {providers}.',
  signInErrors: {
    Signin: 'Essayez de vous reconnecter.',
    OAuthSignin: 'Impossible de lancer la connexion avec ce fournisseur. Réessayez.',
    OAuthCallbackError: 'La réponse du fournisseur de connexion n’a pas pu être acceptée. Réessayez.',
    OAuthCreateAccount: 'Impossible de créer votre compte. Réessayez.',
    EmailCreateAccount: 'Impossible de créer votre compte. Réessayez.',
    Callback: 'La connexion n’a pas pu aboutir. Réessayez.',
    OAuthAccountNotLinked:
      'Pour confirmer votre identité, connectez-vous avec le compte que vous avez utilisé la première fois.',
    EmailSignin: 'L’e-mail n’a pas pu être envoyé.',
    CredentialsSignin: 'Échec de la connexion. Vérifiez que les informations saisies sont correctes.',
    SessionRequired: 'Veuillez vous connecter pour accéder à cette page.',
    default: 'Connexion impossible.',
  },
  errorPages: {
    Configuration: {
      title: 'Erreur du serveur',
      text: 'La configuration du serveur pose problème. Contactez l’administrateur du site.',
    },
    AccessDenied: { title: 'Accès refusé', text: 'Vous n’êtes pas autorisé à vous connecter.' },
    Verification: {
      title: 'Connexion impossible',
      text: 'Le lien de connexion n’est plus valide. Il a peut-être déjà été utilisé, ou il a expiré.',
    },
    default: { title: 'Erreur', text: 'Une erreur s’est produite lors de la connexion.' },
  },
  sessions: {
    title: 'Vos sessions',
    intro: 'Vous êtes connecté sur ces appareils. Déconnectez ceux que vous ne reconnaissez pas.',
    thisDevice: 'Cet appareil',
    signedIn: 'Connexion le {time}',
    lastSeen: 'Vu pour la dernière fois le {time}',
    from: 'Depuis {address}',
    via: 'Avec {method}',
    signOutDevice: 'Déconnecter',
    signOutOthers: 'Déconnecter partout ailleurs',
    none: 'Aucune autre session.',
  },
}
