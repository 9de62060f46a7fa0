/**
 * The texts of the built-in pages in one language. Authchart extension: Auth.js's pages are English only.
 * `{provider}` and `{email}` are replaced with the (escaped) provider name and e-mail address.
 */
export interface PageMessages {
  /** The sign-in page's title and heading. */
  signInTitle: string
  /** A provider's button: `{provider}` is its name. */
  signInWith: string
  /** The label of the e-mail provider's address field (where the sign-in link is sent). */
  emailLabel: string
  /**
   * The label of the passkey form's e-mail field. Distinct from `emailLabel`: a page with both providers would
   * otherwise show two sections labelled alike, and a screen reader could not tell the fields apart.
   */
  passkeyEmailLabel: string
  emailPlaceholder: string
  /** Shown under the passkey button when the browser's passkey prompt failed or was dismissed. */
  passkeyFailed: string
  signOutTitle: string
  signOutQuestion: string
  signOutButton: string
  verifyRequestTitle: string
  verifyRequestText: string
  /** The link back to the site's home page. */
  homeLink: string
  /** The link to the sign-in page (on the error page of an expired link). */
  signInLink: string
  /** The page a sign-in link opens: title, who is signing in (`{email}`), the button. */
  emailConfirmTitle: string
  emailConfirmAs: string
  emailConfirmButton: string
  /** The page shown while a store the flows need cannot be reached. */
  unavailableTitle: string
  unavailableText: string
  /** The unavailable page on a callback: the flow it was finishing is spent, so the user starts again. */
  unavailableRestartText: string
  /**
   * The page for a sign-in or callback address whose provider id is not configured (a mistyped id):
   * `{providers}` is the list of the ids that are.
   */
  unknownProviderTitle: string
  unknownProviderText: string
  /** The sign-in page's message for each `error` query value; `default` for any other value. */
  signInErrors: SignInErrorMessages
  /** The error page's title and text for each `error` query value; `default` for any other value. */
  errorPages: ErrorPageMessages
  /** The "your sessions" page (session management); English when a language of the app's own leaves it out. */
  sessions?: SessionsPageMessages
  /** The second-factor page (enrolment and management); English when a language of the app's own leaves it out. */
  factors?: FactorsPageMessages
  secondFactor?: SecondFactorPageMessages
}

/** The sign-in's second-factor challenge page. */
export interface SecondFactorPageMessages {
  title: string
  intro: string
  codeLabel: string
  useRecovery: string
  recoveryLabel: string
  verify: string
  wrongCode: string
  /** The button that answers with a passkey, shown to a user who holds one (English when an app's language lacks it). */
  usePasskey?: string
  /** Shown when the passkey was not accepted or the browser's dialog was cancelled (English when missing). */
  passkeyFailed?: string
}

/** The second-factor page: `{time}` is a date and time. */
export interface FactorsPageMessages {
  title: string
  intro: string
  none: string
  totp: string
  recoveryCodes: string
  added: string
  remove: string
  addTotp: string
  regenerate: string
  enrolTitle: string
  enrolScan: string
  qrLabel: string
  secretLabel: string
  codeLabel: string
  nameLabel: string
  confirm: string
  wrongCode: string
  expired: string
  enrolled: string
  codesTitle: string
  codesText: string
  reauth: string
  signInAgain: string
  unknown: string
  back: string
  /** The link on from the recovery codes to where the sign-in was going (English when an app's language lacks it). */
  continue?: string
}

/** The "your sessions" page: `{time}` is a date and time, `{address}` a client address, `{method}` a provider id. */
export interface SessionsPageMessages {
  title: string
  intro: string
  thisDevice: string
  signedIn: string
  lastSeen: string
  from: string
  via: string
  signOutDevice: string
  signOutOthers: string
  none: string
}

/** The sign-in page's error messages, keyed by the `error` query value. */
export interface SignInErrorMessages {
  Signin: string
  OAuthSignin: string
  OAuthCallbackError: string
  OAuthCreateAccount: string
  EmailCreateAccount: string
  Callback: string
  OAuthAccountNotLinked: string
  EmailSignin: string
  CredentialsSignin: string
  SessionRequired: string
  /**
   * A step-up (`requireRecentAuth`) sent the user to sign in again. Optional, so a language of the app's own that
   * predates it still type-checks; without it the page shows `default`.
   */
  ReauthenticationRequired?: string
  default: string
}

/** One error page: its title (and heading) and its text. */
export interface ErrorPageMessage {
  title: string
  text: string
}

/** The error page's texts, keyed by the `error` query value. */
export interface ErrorPageMessages {
  Configuration: ErrorPageMessage
  AccessDenied: ErrorPageMessage
  Verification: ErrorPageMessage
  default: ErrorPageMessage
}

/**
 * Texts an app gives for one language in `theme.locales`: any key left out comes from the built-in locale of the same
 * language when there is one, else from English.
 */
export type PageMessagesInput = {
  [K in keyof PageMessages]?: PageMessages[K] extends string
    ? string
    : { [E in keyof PageMessages[K]]?: PageMessages[K][E] extends string ? string : Partial<PageMessages[K][E]> }
}
