/** English: the default language of the built-in pages, and the fallback for any text a locale leaves out. */
import type {
  FactorsPageMessages,
  SecondFactorPageMessages,
  PageMessages,
  SessionsPageMessages,
} from '../../types/page-messages.js'

/** The "your sessions" page; also the texts an app's own language falls back to. */
export const enSessions: SessionsPageMessages = {
  title: 'Your sessions',
  intro: 'You are signed in on these devices. Sign out of any you do not recognise.',
  thisDevice: 'This device',
  signedIn: 'Signed in {time}',
  lastSeen: 'Last seen {time}',
  from: 'From {address}',
  via: 'With {method}',
  signOutDevice: 'Sign out',
  signOutOthers: 'Sign out everywhere else',
  none: 'No other sessions.',
}

/** The second-factor page; also the texts an app's own language falls back to. */
export const enSecondFactor: SecondFactorPageMessages = {
  title: 'Two-step verification',
  intro: 'Enter the code from your authenticator app to finish signing in.',
  codeLabel: 'Code from the app',
  useRecovery: 'Lost your device? Use a recovery code instead.',
  recoveryLabel: 'Recovery code',
  verify: 'Verify',
  wrongCode: 'That code is not valid. Try again.',
}

export const enFactors: FactorsPageMessages = {
  title: 'Two-step verification',
  intro: 'After your usual sign-in, you are asked for a code from your authenticator app.',
  none: 'No authenticator app is set up yet.',
  totp: 'Authenticator app',
  recoveryCodes: 'Recovery codes',
  added: 'Added {time}',
  remove: 'Remove',
  addTotp: 'Add an authenticator app',
  regenerate: 'Get new recovery codes',
  enrolTitle: 'Add an authenticator app',
  enrolScan:
    'Scan this QR code with your authenticator app, or type in the key below. Then enter the code the app shows.',
  qrLabel: 'QR code for your authenticator app',
  secretLabel: 'Key',
  codeLabel: 'Code from the app',
  nameLabel: 'Name for this app (optional)',
  confirm: 'Confirm',
  wrongCode: 'That code did not match. Check that your device’s clock is right and enter the current code.',
  expired: 'This setup has expired. Start again.',
  enrolled: 'Your authenticator app is set up.',
  codesTitle: 'Your recovery codes',
  codesText: 'Each code works once, if you lose your device. Keep them somewhere safe: they are shown only this once.',
  reauth: 'To remove your last authenticator app, sign in again first.',
  signInAgain: 'Sign in again',
  unknown: 'That factor no longer exists.',
  back: 'Back to two-step verification',
}

export const en: PageMessages = {
  signInTitle: 'Sign in',
  signInWith: 'Sign in with {provider}',
  emailLabel: 'Email for a sign-in link',
  passkeyEmailLabel: 'Email for your passkey',
  emailPlaceholder: 'name@example.com',
  passkeyFailed: 'Passkey sign-in did not complete. Try again.',
  signOutTitle: 'Sign out',
  signOutQuestion: 'Are you sure you want to sign out?',
  signOutButton: 'Sign out',
  verifyRequestTitle: 'Check your email',
  verifyRequestText: 'A sign-in link has been sent to your email address.',
  homeLink: 'Home',
  signInLink: 'Sign in',
  emailConfirmTitle: 'Finish signing in',
  emailConfirmAs: 'Signing in as {email}.',
  emailConfirmButton: 'Sign in',
  unavailableTitle: 'Try again shortly',
  unavailableText: 'Sign-in is temporarily unavailable. Please try again in a moment.',
  unavailableRestartText: 'This sign-in cannot be finished now; once the service is back, start it again.',
  unknownProviderTitle: 'Unknown sign-in provider',
  unknownProviderText: 'This address names a provider that is not configured. Known provider ids: {providers}.',
  signInErrors: {
    Signin: 'Try signing in again.',
    OAuthSignin: 'Could not start the sign-in with this provider. Try again.',
    OAuthCallbackError: 'The sign-in provider answered in a way we could not accept. Try again.',
    OAuthCreateAccount: 'Could not create your account. Try again.',
    EmailCreateAccount: 'Could not create your account. Try again.',
    Callback: 'Sign-in could not be completed. Try again.',
    OAuthAccountNotLinked: 'To confirm your identity, sign in with the same account you used originally.',
    EmailSignin: 'The email could not be sent.',
    CredentialsSignin: 'Sign in failed. Check the details you provided are correct.',
    SessionRequired: 'Please sign in to access this page.',
    ReauthenticationRequired: 'For your security, please sign in again to continue.',
    default: 'Unable to sign in.',
  },
  errorPages: {
    Configuration: {
      title: 'Server error',
      text: 'There is a problem with the server configuration. Contact the site administrator.',
    },
    AccessDenied: { title: 'Access denied', text: 'You do not have permission to sign in.' },
    Verification: {
      title: 'Unable to sign in',
      text: 'The sign-in link is no longer valid. It may have been used already or it may have expired.',
    },
    default: { title: 'Error', text: 'Something went wrong while signing in.' },
  },
  sessions: enSessions,
  factors: enFactors,
  secondFactor: enSecondFactor,
}
