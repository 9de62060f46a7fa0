/** Spanish, addressing the reader as "tú", as most sites do today. */
import type { PageMessages } from '../../types/page-messages.js'

export const es: PageMessages = {
  signInTitle: 'Iniciar sesión',
  signInWith: 'Iniciar sesión con {provider}',
  emailLabel: 'Correo electrónico para un enlace de acceso',
  passkeyEmailLabel: 'Correo electrónico de su llave de acceso',
  emailPlaceholder: 'nombre@example.com',
  passkeyFailed: 'No se ha podido completar el inicio de sesión con la llave de acceso. Inténtalo de nuevo.',
  signOutTitle: 'Cerrar sesión',
  signOutQuestion: '¿Seguro que quieres cerrar sesión?',
  signOutButton: 'Cerrar sesión',
  verifyRequestTitle: 'Revisa tu correo',
  verifyRequestText: 'Te hemos enviado un enlace para iniciar sesión a tu dirección de correo electrónico.',
  homeLink: 'Volver al inicio',
  signInLink: 'Iniciar sesión',
  emailConfirmTitle: 'Completa el inicio de sesión',
  emailConfirmAs: 'Vas a iniciar sesión como {email}.',
  emailConfirmButton: 'Iniciar sesión',
  unavailableTitle: 'Vuelve a intentarlo en breve',
  unavailableText: 'El inicio de sesión no está disponible en este momento. Vuelve a intentarlo dentro de un rato.',
  unavailableRestartText:
    'Este inicio de sesión no se puede completar ahora; cuando el servicio vuelva, empiécelo de nuevo.',
  unknownProviderTitle: 'Proveedor de acceso desconocido',
  unknownProviderText:
    'Esta dirección nombra un proveedor que no está configurado. Identificadores de proveedor conocidos: {providers}.',
  signInErrors: {
    Signin: 'Vuelve a intentar iniciar sesión.',
    OAuthSignin: 'No se ha podido iniciar sesión con este proveedor. Inténtalo de nuevo.',
    OAuthCallbackError: 'No hemos podido aceptar la respuesta del proveedor de inicio de sesión. Inténtalo de nuevo.',
    OAuthCreateAccount: 'No se ha podido crear tu cuenta. Inténtalo de nuevo.',
    EmailCreateAccount: 'No se ha podido crear tu cuenta. Inténtalo de nuevo.',
    Callback: 'No se ha podido completar el inicio de sesión. Inténtalo de nuevo.',
    OAuthAccountNotLinked: 'Para confirmar tu identidad, inicia sesión con la misma cuenta que usaste la primera vez.',
    EmailSignin: 'No se ha podido enviar el correo.',
    CredentialsSignin: 'No se ha podido iniciar sesión. Comprueba que los datos que has introducido son correctos.',
    SessionRequired: 'Inicia sesión para acceder a esta página.',
    default: 'No se ha podido iniciar sesión.',
  },
  errorPages: {
    Configuration: {
      title: 'Error del servidor',
      text: 'Hay un problema con la configuración del servidor. Ponte en contacto con el administrador del sitio.',
    },
    AccessDenied: { title: 'Acceso denegado', text: 'No tienes permiso para iniciar sesión.' },
    Verification: {
      title: 'No se ha podido iniciar sesión',
      text: 'El enlace de inicio de sesión ya no es válido. Puede que ya se haya usado o que haya caducado.',
    },
    default: { title: 'Error', text: 'Se ha producido un error al iniciar sesión.' },
  },
}
