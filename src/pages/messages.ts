/** The text shown for each `error` query value. Unknown values get the generic text: the URL is user-controlled. */

const signInMessages: Record<string, string> = {
  Signin: 'Try signing in again.',
  OAuthSignin: 'Could not start the sign-in with this provider. Try again.',
  OAuthCallbackError: 'The sign-in provider answered in a way we could not accept. Try again.',
  OAuthCreateAccount: 'Could not create your account. Try again.',
  EmailCreateAccount: 'Could not create your account. Try again.',
  Callback: 'Sign-in could not be completed. Try again.',
  OAuthAccountNotLinked: 'To confirm your identity, sign in with the same account you used originally.',
  EmailSignin: 'The e-mail could not be sent.',
  CredentialsSignin: 'Sign in failed. Check the details you provided are correct.',
  SessionRequired: 'Please sign in to access this page.',
}

const errorMessages: Record<string, { title: string; text: string }> = {
  Configuration: {
    title: 'Server error',
    text: 'There is a problem with the server configuration. Contact the site administrator.',
  },
  AccessDenied: { title: 'Access denied', text: 'You do not have permission to sign in.' },
  Verification: {
    title: 'Unable to sign in',
    text: 'The sign-in link is no longer valid. It may have been used already or it may have expired.',
  },
}

/** The message for an `error` value on the sign-in page. */
export function signInErrorMessage(error: string): string {
  return signInMessages[error] ?? 'Unable to sign in.'
}

/** Title and text for an `error` value on the error page. */
export function errorPageMessage(error: string): { title: string; text: string } {
  return errorMessages[error] ?? { title: 'Error', text: 'Something went wrong while signing in.' }
}
