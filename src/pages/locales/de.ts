/** German, in the formal address (Sie) that sign-in pages use. */
import type { PageMessages } from '../../types/page-messages.js'

export const de: PageMessages = {
  signInTitle: 'Anmelden',
  signInWith: 'Mit {provider} anmelden',
  emailLabel: 'E-Mail-Adresse für einen Anmeldelink',
  passkeyEmailLabel: 'E-Mail-Adresse für Ihren Passkey',
  emailPlaceholder: 'name@example.com',
  passkeyFailed: 'Die Anmeldung mit dem Passkey wurde nicht abgeschlossen. Bitte versuchen Sie es erneut.',
  signOutTitle: 'Abmelden',
  signOutQuestion: 'Möchten Sie sich wirklich abmelden?',
  signOutButton: 'Abmelden',
  verifyRequestTitle: 'Prüfen Sie Ihr Postfach',
  verifyRequestText: 'Wir haben einen Anmeldelink an Ihre E-Mail-Adresse gesendet.',
  homeLink: 'Zur Startseite',
  signInLink: 'Anmelden',
  emailConfirmTitle: 'Anmeldung abschließen',
  emailConfirmAs: 'Anmeldung als {email}.',
  emailConfirmButton: 'Anmelden',
  unavailableTitle: 'Bitte versuchen Sie es gleich noch einmal',
  unavailableText: 'Die Anmeldung ist vorübergehend nicht verfügbar. Bitte versuchen Sie es in Kürze erneut.',
  unavailableRestartText:
    'Diese Anmeldung kann jetzt nicht abgeschlossen werden; beginnen Sie sie erneut, sobald der Dienst wieder verfügbar ist.',
  unknownProviderTitle: 'Unbekannter Anmeldeanbieter',
  unknownProviderText:
    'Diese Adresse nennt einen Anbieter, der nicht eingerichtet ist. Bekannte Anbieter-IDs: {providers}.',
  signInErrors: {
    Signin: 'Bitte melden Sie sich erneut an.',
    OAuthSignin: 'Die Anmeldung bei diesem Anbieter konnte nicht gestartet werden. Bitte versuchen Sie es erneut.',
    OAuthCallbackError:
      'Die Antwort des Anmeldeanbieters konnte nicht akzeptiert werden. Bitte versuchen Sie es erneut.',
    OAuthCreateAccount: 'Ihr Konto konnte nicht erstellt werden. Bitte versuchen Sie es erneut.',
    EmailCreateAccount: 'Ihr Konto konnte nicht erstellt werden. Bitte versuchen Sie es erneut.',
    Callback: 'Die Anmeldung konnte nicht abgeschlossen werden. Bitte versuchen Sie es erneut.',
    OAuthAccountNotLinked:
      'Um Ihre Identität zu bestätigen, melden Sie sich mit demselben Konto an, das Sie ursprünglich verwendet haben.',
    EmailSignin: 'Die E-Mail konnte nicht gesendet werden.',
    CredentialsSignin: 'Anmeldung fehlgeschlagen. Bitte prüfen Sie, ob Ihre Angaben korrekt sind.',
    SessionRequired: 'Bitte melden Sie sich an, um diese Seite aufzurufen.',
    default: 'Die Anmeldung ist nicht möglich.',
  },
  errorPages: {
    Configuration: {
      title: 'Serverfehler',
      text: 'Die Serverkonfiguration ist fehlerhaft. Bitte wenden Sie sich an den Betreiber der Website.',
    },
    AccessDenied: { title: 'Zugriff verweigert', text: 'Sie sind nicht berechtigt, sich anzumelden.' },
    Verification: {
      title: 'Anmeldung nicht möglich',
      text: 'Der Anmeldelink ist nicht mehr gültig. Möglicherweise wurde er bereits verwendet oder ist abgelaufen.',
    },
    default: { title: 'Fehler', text: 'Bei der Anmeldung ist ein Fehler aufgetreten.' },
  },
  sessions: {
    title: 'Ihre Sitzungen',
    intro: 'Sie sind auf diesen Geräten angemeldet. Melden Sie alle ab, die Sie nicht kennen.',
    thisDevice: 'Dieses Gerät',
    signedIn: 'Angemeldet am {time}',
    lastSeen: 'Zuletzt gesehen am {time}',
    from: 'Von {address}',
    via: 'Mit {method}',
    signOutDevice: 'Abmelden',
    signOutOthers: 'Überall sonst abmelden',
    none: 'Keine weiteren Sitzungen.',
  },
}
