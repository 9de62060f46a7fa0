import { CredentialsSignin } from '@auth/express'

/** Wrong user name or password: the sign-in page shows `code`. */
export class InvalidLoginError extends CredentialsSignin {
  code = 'invalid_login'
}
