/**
 * One sample sign-in per vendor: the profile in the shape the vendor documents (its userinfo answer, or the claims of
 * its ID token / userinfo for OIDC vendors), the user `profile()` must make of it, and what else the vendor's
 * endpoints answer. Values are invented; shapes and field names follow each vendor's documentation. Used by
 * vendor-profiles.test.ts (profile() alone) and vendor-conformance.test.ts (the whole sign-in through Auth()).
 */
import type { User } from '../../src/types/index.js'

export interface VendorSample {
  /** Factory options besides the client credentials (issuer, tenant, ...). */
  options?: Record<string, unknown>
  /** What `profile()` receives. */
  profile: Record<string, unknown>
  /** The ID token's claims, when they are not `profile` (Apple's `user` arrives in the callback, never in the token). */
  idTokenClaims?: Record<string, unknown>
  /** What `profile()` must return. */
  user: Required<Pick<User, 'id'>> & Pick<User, 'name' | 'email' | 'image'>
  /** The userinfo endpoint's answer, when it is not `profile` itself (a vendor request post-processes it). */
  userinfo?: unknown
  /** Members the vendor adds to (or, as `undefined`, leaves out of) its token response. */
  token?: Record<string, unknown>
  /** Further vendor URLs the provider calls (`METHOD https://...`, query ignored) and their JSON answers. */
  routes?: Record<string, unknown>
  /** Whether the userinfo endpoint answers with a signed JWT (`application/jwt`) instead of JSON. */
  userinfoJwt?: boolean
  /** Fields of a form_post callback besides code and state (Apple's first-login `user`). */
  formPost?: Record<string, string>
}

const tenant = '9188040d-6c67-4c5b-b112-36a304b66dad'

export const vendorSamples: Record<string, VendorSample> = {
  '42-school': {
    profile: {
      id: 97431,
      login: 'norminet',
      email: 'norminet@student.42.test',
      usual_full_name: 'Norminet Cat',
      image: { link: 'https://cdn.intra.42.test/users/norminet.jpg', versions: {} },
    },
    user: {
      id: '97431',
      name: 'Norminet Cat',
      email: 'norminet@student.42.test',
      image: 'https://cdn.intra.42.test/users/norminet.jpg',
    },
  },
  apple: {
    profile: {
      sub: '001234.5a6b7c.0102',
      email: 'ada@privaterelay.appleid.test',
      email_verified: 'true',
      is_private_email: 'true',
      user: { name: { firstName: 'Ada', lastName: 'Lovelace' } },
    },
    idTokenClaims: {
      sub: '001234.5a6b7c.0102',
      email: 'ada@privaterelay.appleid.test',
      email_verified: 'true',
      is_private_email: 'true',
    },
    formPost: {
      user: JSON.stringify({
        name: { firstName: 'Ada', lastName: 'Lovelace' },
        email: 'ada@privaterelay.appleid.test',
      }),
    },
    user: { id: '001234.5a6b7c.0102', name: 'Ada Lovelace', email: 'ada@privaterelay.appleid.test', image: null },
  },
  asgardeo: {
    options: { issuer: 'https://api.asgardeo.io/t/acme' },
    profile: {
      sub: 'b4f2c7e1-asg',
      given_name: 'Asha',
      family_name: 'Gard',
      email: 'asha@acme.test',
      picture: 'https://acme.test/asha.png',
    },
    user: { id: 'b4f2c7e1-asg', name: 'Asha Gard', email: 'asha@acme.test', image: 'https://acme.test/asha.png' },
  },
  atlassian: {
    profile: {
      account_id: '5b10ac8d82e05b22cc7d4ef5',
      email: 'jira@example.test',
      name: 'Jira User',
      picture: 'https://avatar-management.example/jira.png',
      nickname: 'jira',
      account_status: 'active',
    },
    user: {
      id: '5b10ac8d82e05b22cc7d4ef5',
      name: 'Jira User',
      email: 'jira@example.test',
      image: 'https://avatar-management.example/jira.png',
    },
  },
  auth0: {
    options: { issuer: 'https://tenant.eu.auth0.test/' },
    profile: {
      sub: 'auth0|5f7c8ec7c33c6c004bbafe82',
      nickname: 'jdoe',
      name: 'Jane Doe',
      email: 'jdoe@example.test',
      picture: 'https://s.gravatar.test/jdoe.png',
    },
    user: {
      id: 'auth0|5f7c8ec7c33c6c004bbafe82',
      name: 'Jane Doe',
      email: 'jdoe@example.test',
      image: 'https://s.gravatar.test/jdoe.png',
    },
  },
  authentik: {
    options: { issuer: 'https://auth.example.test/application/o/my-app/' },
    profile: { sub: 'ak-4d5e', preferred_username: 'akadmin', email: 'ak@example.test' },
    user: { id: 'ak-4d5e', name: 'akadmin', email: 'ak@example.test', image: null },
  },
  'azure-ad-b2c': {
    options: { issuer: 'https://contoso.b2clogin.test/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/' },
    profile: {
      sub: 'b2c-oid-1',
      name: 'Brooke Two',
      given_name: 'Brooke',
      family_name: 'Two',
      emails: ['brooke@contoso.test'],
      tfp: 'B2C_1_signupsignin',
    },
    user: { id: 'b2c-oid-1', name: 'Brooke Two', email: 'brooke@contoso.test', image: null },
  },
  'azure-ad': {
    options: { tenantId: tenant, profilePhotoSize: 0 },
    profile: {
      sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
      tid: tenant,
      oid: '00000000-0000-0000-66f3-3332eca7ea81',
      name: 'Megan Bowen',
      email: 'megan@contoso.test',
      preferred_username: 'megan@contoso.test',
    },
    user: {
      id: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
      name: 'Megan Bowen',
      email: 'megan@contoso.test',
      image: null,
    },
  },
  'azure-devops': {
    profile: {
      id: 'b4e1a6e0-1f4c-4b2a-9a2a-ado',
      displayName: 'Devon Ops',
      emailAddress: 'devon@contoso.test',
      publicAlias: 'b4e1',
      coreAttributes: { Avatar: { value: { value: '/9j/' } } },
    },
    user: {
      id: 'b4e1a6e0-1f4c-4b2a-9a2a-ado',
      name: 'Devon Ops',
      email: 'devon@contoso.test',
      image: 'data:image/jpeg;base64,/9j/',
    },
  },
  'bankid-no': {
    profile: {
      sub: '9578-6000-4-365161',
      name: 'Kari Nordmann',
      given_name: 'Kari',
      family_name: 'Nordmann',
      birthdate: '1980-01-01',
      email: 'kari@bankid.test',
    },
    idTokenClaims: { sub: '9578-6000-4-365161', name: 'Kari Nordmann' },
    userinfoJwt: true,
    user: { id: '9578-6000-4-365161', name: 'Kari Nordmann', email: 'kari@bankid.test', image: null },
  },
  battlenet: {
    options: { issuer: 'https://oauth.battle.net' },
    profile: { sub: '123456789', battle_tag: 'Thrall#1234' },
    user: { id: '123456789', name: 'Thrall#1234', email: null, image: null },
  },
  beyondidentity: {
    options: { issuer: 'https://auth-us.beyondidentity.test/v1/tenants/t1/realms/r1/applications/a1' },
    profile: { sub: 'bi-identity-77', email: 'bi@example.test', name: 'Bea Yond', preferred_username: 'bea' },
    user: { id: 'bi-identity-77', name: 'Bea Yond', email: 'bi@example.test', image: null },
  },
  bitbucket: {
    profile: {
      account_id: '557058:c0b72ad0',
      uuid: '{d301aafa}',
      username: 'bbuser',
      display_name: 'Bit Bucket',
      links: { avatar: { href: 'https://avatar.bitbucket.test/bb.png' } },
      email: 'primary@bitbucket.test',
    },
    userinfo: {
      account_id: '557058:c0b72ad0',
      uuid: '{d301aafa}',
      username: 'bbuser',
      display_name: 'Bit Bucket',
      links: { avatar: { href: 'https://avatar.bitbucket.test/bb.png' } },
    },
    routes: {
      'GET https://api.bitbucket.org/2.0/user/emails': {
        values: [
          { email: 'old@bitbucket.test', is_primary: false, is_confirmed: true },
          { email: 'primary@bitbucket.test', is_primary: true, is_confirmed: true },
        ],
      },
    },
    user: {
      id: '557058:c0b72ad0',
      name: 'Bit Bucket',
      email: 'primary@bitbucket.test',
      image: 'https://avatar.bitbucket.test/bb.png',
    },
  },
  box: {
    profile: {
      type: 'user',
      id: '11446498',
      name: 'Aaron Levie',
      login: 'ceo@example.test',
      avatar_url: 'https://www.box.test/api/avatar/large/11446498',
    },
    user: {
      id: '11446498',
      name: 'Aaron Levie',
      email: 'ceo@example.test',
      image: 'https://www.box.test/api/avatar/large/11446498',
    },
  },
  'boxyhq-saml': {
    options: { issuer: 'https://jackson.example.test' },
    profile: {
      id: 'saml-id-1',
      email: 'sam@saml.test',
      firstName: 'Sam',
      lastName: 'Ell',
      requested: { tenant: 'acme', product: 'app' },
    },
    user: { id: 'saml-id-1', name: 'Sam Ell', email: 'sam@saml.test', image: null },
  },
  bungie: {
    options: { apiKey: 'bungie-api-key' },
    token: { membership_id: '4611686018' },
    profile: {
      Response: {
        bungieNetUser: {
          membershipId: '4611686018',
          displayName: 'Guardian',
          uniqueName: 'Guardian#0001',
          profilePicturePath: '/img/profile/avatars/default_avatar.gif',
        },
      },
      ErrorCode: 1,
    },
    routes: {
      'GET https://www.bungie.net/Platform/User/GetBungieAccount/4611686018/254/': {
        Response: {
          bungieNetUser: {
            membershipId: '4611686018',
            displayName: 'Guardian',
            uniqueName: 'Guardian#0001',
            profilePicturePath: '/img/profile/avatars/default_avatar.gif',
          },
        },
        ErrorCode: 1,
      },
    },
    user: {
      id: '4611686018',
      name: 'Guardian',
      email: null,
      image: 'https://www.bungie.net/img/profile/avatars/default_avatar.gif',
    },
  },
  'click-up': {
    profile: {
      user: {
        id: 123,
        username: 'clicker',
        email: 'clicker@example.test',
        color: '#000000',
        profilePicture: 'https://attachments.clickup.test/p.jpg',
      },
    },
    user: {
      id: '123',
      name: 'clicker',
      email: 'clicker@example.test',
      image: 'https://attachments.clickup.test/p.jpg',
    },
  },
  cognito: {
    options: { issuer: 'https://cognito-idp.eu-west-1.amazonaws.test/eu-west-1_AbCdEf' },
    profile: {
      sub: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
      'cognito:username': 'pooluser',
      email: 'pool@example.test',
      email_verified: true,
    },
    user: { id: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee', name: 'pooluser', email: 'pool@example.test', image: null },
  },
  coinbase: {
    profile: {
      data: {
        id: '9da7a204-544e-5fd1-9a12-61176c5d4cd8',
        name: 'User One',
        username: 'user1',
        email: 'user1@example.test',
        avatar_url: 'https://images.coinbase.test/avatar',
        resource: 'user',
      },
    },
    user: {
      id: '9da7a204-544e-5fd1-9a12-61176c5d4cd8',
      name: 'User One',
      email: 'user1@example.test',
      image: 'https://images.coinbase.test/avatar',
    },
  },
  concept2: {
    profile: {
      data: {
        id: 1,
        username: 'rower',
        first_name: 'Row',
        last_name: 'Er',
        email: 'rower@example.test',
        profile_image: 'https://log.concept2.test/rower.jpg',
      },
    },
    user: { id: '1', name: 'rower', email: 'rower@example.test', image: 'https://log.concept2.test/rower.jpg' },
  },
  descope: {
    options: { issuer: 'https://api.descope.test/P2abcDescopeProject' },
    profile: {
      sub: 'U2descopeuser',
      name: 'Des Cope',
      email: 'des@example.test',
      picture: 'https://descope.test/des.png',
    },
    user: { id: 'U2descopeuser', name: 'Des Cope', email: 'des@example.test', image: 'https://descope.test/des.png' },
  },
  discord: {
    profile: {
      id: '80351110224678912',
      username: 'nelly',
      global_name: 'Nelly',
      discriminator: '0',
      avatar: '8342729096ea3675442027381ff50dfe',
      email: 'nelly@example.test',
      verified: true,
    },
    user: {
      id: '80351110224678912',
      name: 'Nelly',
      email: 'nelly@example.test',
      image: 'https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png',
    },
  },
  dribbble: {
    profile: {
      id: 1,
      name: 'Dan Cederholm',
      login: 'simplebits',
      email: 'dan@example.test',
      avatar_url: 'https://cdn.dribbble.test/users/1/avatar.jpg',
    },
    user: {
      id: '1',
      name: 'Dan Cederholm',
      email: 'dan@example.test',
      image: 'https://cdn.dribbble.test/users/1/avatar.jpg',
    },
  },
  dropbox: {
    profile: {
      account_id: 'dbid:AAH4f99T0taONIb',
      name: { display_name: 'Franz Ferdinand' },
      email: 'franz@example.test',
      email_verified: true,
      profile_photo_url: 'https://dl-web.dropbox.test/photo',
    },
    routes: {
      'POST https://api.dropboxapi.com/2/users/get_current_account': {
        account_id: 'dbid:AAH4f99T0taONIb',
        name: { display_name: 'Franz Ferdinand' },
        email: 'franz@example.test',
        email_verified: true,
        profile_photo_url: 'https://dl-web.dropbox.test/photo',
      },
    },
    user: {
      id: 'dbid:AAH4f99T0taONIb',
      name: 'Franz Ferdinand',
      email: 'franz@example.test',
      image: 'https://dl-web.dropbox.test/photo',
    },
  },
  'duende-identity-server6': {
    options: { issuer: 'https://demo.duendesoftware.test' },
    profile: { sub: '818727', name: 'Alice Smith', email: 'alicesmith@example.test', email_verified: true },
    user: { id: '818727', name: 'Alice Smith', email: 'alicesmith@example.test', image: null },
  },
  eventbrite: {
    profile: {
      id: '1234567890',
      name: 'Eve Brite',
      first_name: 'Eve',
      last_name: 'Brite',
      emails: [{ email: 'eve@example.test', verified: true, primary: true }],
      image_id: '9876',
    },
    user: {
      id: '1234567890',
      name: 'Eve Brite',
      email: 'eve@example.test',
      image: 'https://img.evbuc.com/https%3A%2F%2Fcdn.evbuc.com%2Fimages%2F9876%2F1%2Foriginal.jpg',
    },
  },
  eveonline: {
    profile: {
      CharacterID: 95465499,
      CharacterName: 'CCP Bartender',
      ExpiresOn: '2026-11-24T22:00:00',
      Scopes: 'publicData',
      TokenType: 'Character',
      CharacterOwnerHash: 'XM4D...',
      IntellectualProperty: 'EVE',
    },
    user: {
      id: '95465499',
      name: 'CCP Bartender',
      email: null,
      image: 'https://image.eveonline.com/Character/95465499_128.jpg',
    },
  },
  facebook: {
    profile: {
      id: '10158',
      name: 'Fay Book',
      email: 'fay@example.test',
      picture: { data: { url: 'https://fb.test/p.jpg', is_silhouette: false } },
    },
    user: { id: '10158', name: 'Fay Book', email: 'fay@example.test', image: 'https://fb.test/p.jpg' },
  },
  faceit: {
    profile: {
      guid: 'ad42a4c4-faceit',
      nickname: 'fragger',
      email: 'fragger@example.test',
      picture: 'https://assets.faceit.test/fragger.jpg',
      locale: 'en',
    },
    user: {
      id: 'ad42a4c4-faceit',
      name: 'fragger',
      email: 'fragger@example.test',
      image: 'https://assets.faceit.test/fragger.jpg',
    },
  },
  figma: {
    profile: { id: '1001', handle: 'figgy', email: 'figgy@example.test', img_url: 'https://s3.figma.test/figgy.png' },
    user: { id: '1001', name: 'figgy', email: 'figgy@example.test', image: 'https://s3.figma.test/figgy.png' },
  },
  foursquare: {
    token: { token_type: undefined },
    profile: {
      response: {
        user: {
          id: '1234',
          firstName: 'Jimmy',
          lastName: 'Foursquare',
          contact: { email: 'jimmy@example.test' },
          photo: { prefix: 'https://fastly.4sqi.test/img/user/', suffix: '/jimmy.jpg' },
        },
      },
      meta: { code: 200 },
    },
    user: {
      id: '1234',
      name: 'Jimmy Foursquare',
      email: 'jimmy@example.test',
      image: 'https://fastly.4sqi.test/img/user/original/jimmy.jpg',
    },
  },
  freshbooks: {
    profile: {
      response: {
        id: 2192788,
        identity_id: 2192788,
        first_name: 'Fresh',
        last_name: 'Books',
        email: 'fresh@example.test',
      },
    },
    user: { id: '2192788', name: 'Fresh Books', email: 'fresh@example.test', image: null },
  },
  frontegg: {
    options: { issuer: 'https://app-xyz.frontegg.test' },
    profile: {
      sub: 'fe-user-1',
      name: 'Fron Tegg',
      email: 'front@example.test',
      profilePictureUrl: 'https://frontegg.test/p.png',
    },
    user: { id: 'fe-user-1', name: 'Fron Tegg', email: 'front@example.test', image: 'https://frontegg.test/p.png' },
  },
  fusionauth: {
    options: { issuer: 'https://login.piedpiper.test' },
    profile: {
      sub: '2a106a64-c9e6-4d20-8d3b-4ea2ee1e0e4d',
      applicationId: 'app',
      email: 'richard@piedpiper.test',
      preferred_username: 'richard',
      roles: ['admin'],
    },
    user: { id: '2a106a64-c9e6-4d20-8d3b-4ea2ee1e0e4d', name: 'richard', email: 'richard@piedpiper.test', image: null },
  },
  github: {
    profile: {
      id: 583231,
      login: 'octocat',
      name: null,
      email: 'octo@example.test',
      avatar_url: 'https://avatars.github.test/u/583231',
    },
    userinfo: {
      id: 583231,
      login: 'octocat',
      name: null,
      email: null,
      avatar_url: 'https://avatars.github.test/u/583231',
    },
    routes: {
      'GET https://api.github.com/user/emails': [
        { email: 'unverified@example.test', primary: true, verified: false, visibility: 'private' },
        { email: 'octo@example.test', primary: false, verified: true, visibility: null },
      ],
    },
    user: { id: '583231', name: 'octocat', email: 'octo@example.test', image: 'https://avatars.github.test/u/583231' },
  },
  gitlab: {
    profile: {
      id: 42,
      username: 'tanuki',
      name: 'Tanuki',
      email: 'tanuki@example.test',
      avatar_url: 'https://gitlab.test/a.png',
      state: 'active',
    },
    user: { id: '42', name: 'Tanuki', email: 'tanuki@example.test', image: 'https://gitlab.test/a.png' },
  },
  google: {
    profile: {
      sub: '110169484474386276334',
      email: 'ada@example.test',
      email_verified: true,
      name: 'Ada L',
      picture: 'https://lh3.googleusercontent.test/a',
      given_name: 'Ada',
      family_name: 'L',
      hd: 'example.test',
    },
    user: {
      id: '110169484474386276334',
      name: 'Ada L',
      email: 'ada@example.test',
      image: 'https://lh3.googleusercontent.test/a',
    },
  },
  hubspot: {
    profile: {
      token: 'vendor-access-token',
      user: 'hub@example.test',
      hub_domain: 'example.test',
      hub_id: 62515,
      app_id: 456,
      user_id: 123,
      token_type: 'access',
      scopes: ['oauth'],
    },
    routes: {
      'GET https://api.hubapi.com/oauth/v1/access-tokens/vendor-access-token': {
        token: 'vendor-access-token',
        user: 'hub@example.test',
        hub_domain: 'example.test',
        hub_id: 62515,
        app_id: 456,
        user_id: 123,
        token_type: 'access',
        scopes: ['oauth'],
      },
    },
    user: { id: '123', name: 'hub@example.test', email: 'hub@example.test', image: null },
  },
  huggingface: {
    profile: {
      sub: '62d8a1d3a2b1',
      name: 'Hugging Dev',
      preferred_username: 'hugdev',
      email: 'hug@example.test',
      email_verified: true,
      picture: 'https://cdn-avatars.huggingface.test/hugdev.png',
      isPro: false,
    },
    user: {
      id: '62d8a1d3a2b1',
      name: 'Hugging Dev',
      email: 'hug@example.test',
      image: 'https://cdn-avatars.huggingface.test/hugdev.png',
    },
  },
  'identity-server4': {
    options: { issuer: 'https://demo.identityserver.test' },
    profile: { sub: '88421113', name: 'Bob Smith', email: 'bobsmith@example.test' },
    user: { id: '88421113', name: 'Bob Smith', email: 'bobsmith@example.test', image: null },
  },
  instagram: {
    token: { token_type: undefined, user_id: 17841405793187218 },
    profile: { id: '17841405793187218', username: 'insta_user', account_type: 'BUSINESS', name: 'Insta User' },
    user: { id: '17841405793187218', name: 'insta_user', email: null, image: null },
  },
  kakao: {
    profile: {
      id: 123456789,
      connected_at: '2022-04-11T01:45:28Z',
      kakao_account: {
        email: 'kakao@example.test',
        is_email_verified: true,
        profile: { nickname: '홍길동', profile_image_url: 'http://k.kakaocdn.test/img_640x640.jpg' },
      },
    },
    user: {
      id: '123456789',
      name: '홍길동',
      email: 'kakao@example.test',
      image: 'http://k.kakaocdn.test/img_640x640.jpg',
    },
  },
  keycloak: {
    options: { issuer: 'https://sso.example.test/realms/main' },
    profile: { sub: 'f:1b1e:kc', preferred_username: 'kc-user', email: 'kc@example.test' },
    user: { id: 'f:1b1e:kc', name: 'kc-user', email: 'kc@example.test', image: null },
  },
  kinde: {
    options: { issuer: 'https://acme.kinde.test' },
    profile: {
      sub: 'kp_c3143a4b50ad43c88e541d9077681782',
      given_name: 'Kin',
      family_name: 'De',
      email: 'kinde@example.test',
      picture: 'https://gravatar.test/kinde',
    },
    user: {
      id: 'kp_c3143a4b50ad43c88e541d9077681782',
      name: 'Kin De',
      email: 'kinde@example.test',
      image: 'https://gravatar.test/kinde',
    },
  },
  line: {
    profile: {
      iss: 'https://access.line.me',
      sub: 'U1234567890abcdef1234567890abcdef',
      aud: 'vendor-client-id',
      name: 'Taro Line',
      picture: 'https://profile.line-scdn.test/abcdefghijklmn',
      email: 'taro@example.test',
      amr: ['pwd'],
    },
    user: {
      id: 'U1234567890abcdef1234567890abcdef',
      name: 'Taro Line',
      email: 'taro@example.test',
      image: 'https://profile.line-scdn.test/abcdefghijklmn',
    },
  },
  linkedin: {
    profile: {
      sub: '782bbtaQ',
      name: 'John Doe',
      given_name: 'John',
      family_name: 'Doe',
      email: 'doe@example.test',
      email_verified: true,
      picture: 'https://media.licdn.test/p',
      locale: 'en-US',
    },
    user: { id: '782bbtaQ', name: 'John Doe', email: 'doe@example.test', image: 'https://media.licdn.test/p' },
  },
  logto: {
    options: { issuer: 'https://tenant.logto.test/oidc' },
    profile: {
      sub: 'lg_user_1',
      username: 'logto-user',
      email: 'logto@example.test',
      picture: 'https://logto.test/p.png',
    },
    user: { id: 'lg_user_1', name: 'logto-user', email: 'logto@example.test', image: 'https://logto.test/p.png' },
  },
  mailchimp: {
    profile: {
      dc: 'us1',
      role: 'owner',
      accountname: 'Freddie Co',
      user_id: 42,
      login: {
        email: 'freddie@example.test',
        avatar: null,
        login_id: 42,
        login_name: 'freddie',
        login_email: 'freddie@example.test',
      },
      api_endpoint: 'https://us1.api.mailchimp.test',
    },
    user: { id: '42', name: 'Freddie Co', email: 'freddie@example.test', image: null },
  },
  mailru: {
    profile: {
      id: '8493567',
      name: 'Ivan Petrov',
      first_name: 'Ivan',
      last_name: 'Petrov',
      nickname: 'ivan',
      email: 'ivan@mail.test',
      image: 'https://filin.mail.test/pic?u=ivan',
    },
    user: { id: '8493567', name: 'Ivan Petrov', email: 'ivan@mail.test', image: 'https://filin.mail.test/pic?u=ivan' },
  },
  mastodon: {
    options: { issuer: 'https://mastodon.example.test' },
    profile: {
      id: '14715',
      username: 'trwnh',
      acct: 'trwnh',
      display_name: 'infinite love ⴳ',
      avatar: 'https://files.mastodon.test/a.png',
      avatar_static: 'https://files.mastodon.test/a-static.png',
      url: 'https://mastodon.example.test/@trwnh',
    },
    user: { id: '14715', name: 'trwnh', email: null, image: 'https://files.mastodon.test/a-static.png' },
  },
  mattermost: {
    options: { issuer: 'https://chat.example.test' },
    profile: {
      id: 'mm-user-id',
      username: 'matt',
      first_name: 'Matt',
      last_name: 'Ermost',
      email: 'matt@example.test',
    },
    user: { id: 'mm-user-id', name: 'matt', email: 'matt@example.test', image: null },
  },
  medium: {
    profile: {
      data: {
        id: '5303d74c64f66366f00cb9b2a94f3251bf5',
        username: 'majelbstoat',
        name: 'Jamie Talbot',
        url: 'https://medium.test/@majelbstoat',
        imageUrl: 'https://images.medium.test/jamie.png',
      },
    },
    user: {
      id: '5303d74c64f66366f00cb9b2a94f3251bf5',
      name: 'Jamie Talbot',
      email: null,
      image: 'https://images.medium.test/jamie.png',
    },
  },
  'microsoft-entra-id': {
    options: { tenantId: tenant },
    profile: {
      sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
      tid: tenant,
      name: 'Megan Bowen',
      email: 'megan@contoso.test',
    },
    user: {
      id: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
      name: 'Megan Bowen',
      email: 'megan@contoso.test',
      image: null,
    },
  },
  naver: {
    profile: {
      resultcode: '00',
      message: 'success',
      response: {
        id: '32742776',
        nickname: 'OpenAPI',
        name: '오픈 API',
        email: 'openapi@naver.test',
        profile_image: 'https://ssl.pstatic.test/p.jpg',
      },
    },
    user: { id: '32742776', name: 'OpenAPI', email: 'openapi@naver.test', image: 'https://ssl.pstatic.test/p.jpg' },
  },
  netlify: {
    profile: {
      id: '5c1f2a',
      full_name: 'Net Lify',
      email: 'net@example.test',
      avatar_url: 'https://avatars.netlify.test/n.png',
    },
    user: { id: '5c1f2a', name: 'Net Lify', email: 'net@example.test', image: 'https://avatars.netlify.test/n.png' },
  },
  netsuite: {
    options: {
      issuer: 'TSTDRV1234567',
      userinfo: 'https://tstdrv1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=1&deploy=1',
    },
    profile: { id: 1234, name: 'Net Suite', email: 'ns@example.test', location: 1, role: 3 },
    user: { id: '1234', name: 'Net Suite', email: 'ns@example.test', image: null },
  },
  nextcloud: {
    options: { issuer: 'https://cloud.example.test' },
    token: { user_id: 'nc-user' },
    profile: { id: 'nc-user', displayname: 'Next Cloud', email: 'nc@example.test', enabled: true },
    routes: {
      'GET https://cloud.example.test/ocs/v1.php/cloud/users/nc-user': {
        ocs: {
          meta: { status: 'ok', statuscode: 100 },
          data: { id: 'nc-user', displayname: 'Next Cloud', email: 'nc@example.test', enabled: true },
        },
      },
    },
    user: {
      id: 'nc-user',
      name: 'Next Cloud',
      email: 'nc@example.test',
      image: 'https://cloud.example.test/avatar/nc-user/512',
    },
  },
  notion: {
    token: {
      bot_id: 'bot-1',
      workspace_id: 'ws-1',
      refresh_token: null,
      owner: { type: 'user', user: { object: 'user', id: 'e79a0b74-3aba-4149-9f74-0bb5791a6ee6' } },
    },
    profile: {
      object: 'user',
      id: 'e79a0b74-3aba-4149-9f74-0bb5791a6ee6',
      type: 'person',
      name: 'Avocado Lovelace',
      avatar_url: 'https://secure.notion-static.test/avocado.jpg',
      person: { email: 'avo@example.test' },
    },
    routes: {
      'GET https://api.notion.com/v1/users/me': {
        object: 'user',
        id: 'bot-user-1',
        type: 'bot',
        bot: {
          owner: {
            type: 'user',
            user: {
              object: 'user',
              id: 'e79a0b74-3aba-4149-9f74-0bb5791a6ee6',
              type: 'person',
              name: 'Avocado Lovelace',
              avatar_url: 'https://secure.notion-static.test/avocado.jpg',
              person: { email: 'avo@example.test' },
            },
          },
        },
      },
    },
    user: {
      id: 'e79a0b74-3aba-4149-9f74-0bb5791a6ee6',
      name: 'Avocado Lovelace',
      email: 'avo@example.test',
      image: 'https://secure.notion-static.test/avocado.jpg',
    },
  },
  okta: {
    options: { issuer: 'https://org.okta.test/oauth2/default' },
    profile: {
      sub: '00uid4BxXw6I6TV4m0g3',
      preferred_username: 'okta.user@example.test',
      email: 'okta.user@example.test',
    },
    user: { id: '00uid4BxXw6I6TV4m0g3', name: 'okta.user@example.test', email: 'okta.user@example.test', image: null },
  },
  onelogin: {
    options: { issuer: 'https://acme.onelogin.test/oidc/2' },
    profile: { sub: '39495', nickname: 'one', email: 'one@acme.test', preferred_username: 'one@acme.test' },
    user: { id: '39495', name: 'one', email: 'one@acme.test', image: null },
  },
  'ory-hydra': {
    options: { issuer: 'https://project.projects.oryapis.test' },
    profile: { sub: 'ory-identity-1', email: 'ory@example.test', preferred_username: 'ory-user' },
    user: { id: 'ory-identity-1', name: 'ory-user', email: 'ory@example.test', image: null },
  },
  osso: {
    options: { issuer: 'https://demo.ossoapp.test' },
    profile: { id: 'osso-user-1', email: 'osso@saml.test', idp: 'Okta', requested: { domain: 'saml.test' } },
    user: { id: 'osso-user-1', name: null, email: 'osso@saml.test', image: null },
  },
  osu: {
    profile: {
      id: 7562902,
      username: 'mrekk',
      avatar_url: 'https://a.ppy.test/7562902',
      country_code: 'AU',
      is_bot: false,
    },
    user: { id: '7562902', name: 'mrekk', email: null, image: 'https://a.ppy.test/7562902' },
  },
  passage: {
    options: { issuer: 'https://appid.withpassage.test' },
    profile: { sub: 'passage-user-1', email: 'passage@example.test', email_verified: true, phone_number: '' },
    user: { id: 'passage-user-1', name: null, email: 'passage@example.test', image: null },
  },
  patreon: {
    profile: {
      data: {
        id: '12345',
        type: 'user',
        attributes: { full_name: 'Pat Reon', email: 'pat@example.test', image_url: 'https://c8.patreon.test/pat.png' },
      },
      links: { self: 'https://www.patreon.test/api/oauth2/v2/user/12345' },
    },
    user: { id: '12345', name: 'Pat Reon', email: 'pat@example.test', image: 'https://c8.patreon.test/pat.png' },
  },
  'ping-id': {
    options: { issuer: 'https://auth.pingone.test/env-1234/as' },
    profile: { sub: 'ping-user-1', given_name: 'Ping', family_name: 'One', email: 'ping@example.test' },
    user: { id: 'ping-user-1', name: 'Ping One', email: 'ping@example.test', image: null },
  },
  pinterest: {
    profile: {
      account_type: 'PINNER',
      profile_image: 'https://i.pinimg.test/pin.jpg',
      website_url: 'https://pin.test',
      username: 'pinner',
    },
    user: { id: 'pinner', name: 'pinner', email: null, image: 'https://i.pinimg.test/pin.jpg' },
  },
  pipedrive: {
    profile: {
      success: true,
      data: {
        id: 123,
        name: 'Pipe Drive',
        email: 'pipe@example.test',
        icon_url: 'https://pipedrive.test/i.png',
        company_id: 7,
      },
    },
    user: { id: '123', name: 'Pipe Drive', email: 'pipe@example.test', image: 'https://pipedrive.test/i.png' },
  },
  reddit: {
    profile: { id: 't2_abc', name: 'spez', icon_img: 'https://styles.redditmedia.test/i.png?w=256&h=256' },
    user: { id: 't2_abc', name: 'spez', email: null, image: 'https://styles.redditmedia.test/i.png?w=256&h=256' },
  },
  roblox: {
    profile: {
      sub: '1516563360',
      name: 'exampleuser',
      nickname: 'exampleuser',
      preferred_username: 'exampleuser',
      created_at: 1584059156,
      profile: 'https://www.roblox.test/users/1516563360/profile',
      picture: 'https://tr.rbxcdn.test/avatar.png',
    },
    user: { id: '1516563360', name: 'exampleuser', email: null, image: 'https://tr.rbxcdn.test/avatar.png' },
  },
  salesforce: {
    profile: {
      sub: 'https://login.salesforce.com/id/00Dx0000000BV7z/005x00000012Q9P',
      user_id: '005x00000012Q9P',
      organization_id: '00Dx0000000BV7z',
      name: 'Sales Force',
      email: 'sales@example.test',
      picture: 'https://c.salesforce.test/profilephoto/005/F',
    },
    // Keyed on `sub`, the identity URL, as Auth.js keys it.
    user: {
      id: 'https://login.salesforce.com/id/00Dx0000000BV7z/005x00000012Q9P',
      name: 'Sales Force',
      email: 'sales@example.test',
      image: 'https://c.salesforce.test/profilephoto/005/F',
    },
  },
  simplelogin: {
    profile: {
      sub: '2',
      email: 'alias.xyz@simplelogin.test',
      email_verified: true,
      name: 'Simple Login',
      avatar_url: null,
      client: 'Demo',
    },
    user: { id: '2', name: 'Simple Login', email: 'alias.xyz@simplelogin.test', image: null },
  },
  slack: {
    profile: {
      sub: 'U0R7JM',
      'https://slack.com/user_id': 'U0R7JM',
      'https://slack.com/team_id': 'T0R7GR',
      email: 'krane@slack-corp.test',
      email_verified: true,
      name: 'krane',
      picture: 'https://secure.gravatar.test/krane.png',
      'https://slack.com/user_image_512': 'https://avatars.slack-edge.test/512.png',
    },
    user: {
      id: 'U0R7JM',
      name: 'krane',
      email: 'krane@slack-corp.test',
      image: 'https://secure.gravatar.test/krane.png',
    },
  },
  spotify: {
    profile: {
      id: 'wizzler',
      display_name: 'Wizzler',
      email: 'wizzler@example.test',
      images: [
        { url: 'https://i.scdn.test/big.jpg', height: 640, width: 640 },
        { url: 'https://i.scdn.test/small.jpg', height: 64, width: 64 },
      ],
    },
    user: { id: 'wizzler', name: 'Wizzler', email: 'wizzler@example.test', image: 'https://i.scdn.test/big.jpg' },
  },
  strava: {
    token: { athlete: { id: 134815 } },
    profile: {
      id: 134815,
      username: 'marianne_t',
      firstname: 'Marianne',
      lastname: 'Teutenberg',
      profile: 'https://dgalywyr863hv.cloudfront.test/large.jpg',
      profile_medium: 'https://dgalywyr863hv.cloudfront.test/medium.jpg',
    },
    user: {
      id: '134815',
      name: 'Marianne Teutenberg',
      email: null,
      image: 'https://dgalywyr863hv.cloudfront.test/large.jpg',
    },
  },
  threads: {
    token: { token_type: undefined, user_id: '1234567' },
    profile: {
      id: '1234567',
      username: 'threadsapitestuser',
      threads_profile_picture_url: 'https://scontent.cdninstagram.test/t.jpg',
    },
    user: { id: '1234567', name: 'threadsapitestuser', email: null, image: 'https://scontent.cdninstagram.test/t.jpg' },
  },
  tiktok: {
    token: { open_id: 'afd97af1-b87b-48b9-ac98-410aghda5344', refresh_expires_in: 31536000 },
    profile: {
      data: {
        user: {
          open_id: 'afd97af1-b87b-48b9-ac98-410aghda5344',
          avatar_url: 'https://p19-sign.tiktokcdn.test/a.jpeg',
          display_name: 'Tik Toker',
          username: 'tiktoker',
        },
      },
      error: { code: 'ok', message: '', log_id: '20220829' },
    },
    user: {
      id: 'afd97af1-b87b-48b9-ac98-410aghda5344',
      name: 'Tik Toker',
      email: null,
      image: 'https://p19-sign.tiktokcdn.test/a.jpeg',
    },
  },
  todoist: {
    profile: {
      id: '2671355',
      full_name: 'Todo Ist',
      email: 'todo@example.test',
      avatar_big: 'https://dcff1xvirvpfp.cloudfront.test/big.jpg',
    },
    routes: {
      'POST https://api.todoist.com/sync/v9/sync': {
        full_sync: true,
        sync_token: 'x',
        user: {
          id: '2671355',
          full_name: 'Todo Ist',
          email: 'todo@example.test',
          avatar_big: 'https://dcff1xvirvpfp.cloudfront.test/big.jpg',
        },
      },
    },
    user: {
      id: '2671355',
      name: 'Todo Ist',
      email: 'todo@example.test',
      image: 'https://dcff1xvirvpfp.cloudfront.test/big.jpg',
    },
  },
  trakt: {
    profile: {
      username: 'sean',
      private: false,
      name: 'Sean Rudford',
      vip: true,
      ids: { slug: 'sean', uuid: 'b6589fc6' },
      images: { avatar: { full: 'https://walter.trakt.test/sean.png' } },
    },
    user: { id: 'sean', name: 'Sean Rudford', email: null, image: 'https://walter.trakt.test/sean.png' },
  },
  twitch: {
    token: { scope: ['openid', 'user:read:email'] },
    profile: {
      sub: '713936733',
      preferred_username: 'twitchdev',
      email: 'dev@twitch.test',
      email_verified: true,
      picture: 'https://static-cdn.jtvnw.test/p.png',
    },
    user: {
      id: '713936733',
      name: 'twitchdev',
      email: 'dev@twitch.test',
      image: 'https://static-cdn.jtvnw.test/p.png',
    },
  },
  twitter: {
    profile: {
      data: {
        id: '2244994945',
        name: 'X Dev',
        username: 'XDevelopers',
        profile_image_url: 'https://pbs.twimg.test/x.jpg',
      },
    },
    user: { id: '2244994945', name: 'X Dev', email: null, image: 'https://pbs.twimg.test/x.jpg' },
  },
  'united-effects': {
    options: { issuer: 'https://auth.unitedeffects.test/group-1' },
    profile: { sub: 'ue-account-1', email: 'ue@example.test' },
    user: { id: 'ue-account-1', name: null, email: 'ue@example.test', image: null },
  },
  vipps: {
    profile: {
      sub: 'c06c4afe-d9e1-4c5d-939a-177d752a0944',
      name: 'Ada Lovelace',
      given_name: 'Ada',
      family_name: 'Lovelace',
      email: 'ada@vipps.test',
      email_verified: true,
    },
    user: { id: 'c06c4afe-d9e1-4c5d-939a-177d752a0944', name: 'Ada Lovelace', email: 'ada@vipps.test', image: null },
  },
  vk: {
    token: { token_type: undefined, user_id: 66748, email: 'durov@vk.test' },
    profile: {
      id: 66748,
      first_name: 'Pavel',
      last_name: 'Durov',
      photo_100: 'https://sun1.userapi.test/pd.jpg',
      email: 'durov@vk.test',
    },
    userinfo: {
      response: [{ id: 66748, first_name: 'Pavel', last_name: 'Durov', photo_100: 'https://sun1.userapi.test/pd.jpg' }],
    },
    user: { id: '66748', name: 'Pavel Durov', email: 'durov@vk.test', image: 'https://sun1.userapi.test/pd.jpg' },
  },
  webex: {
    profile: {
      id: 'Y2lzY29zcGFyazovL3VzL1BFT1BMRS9m',
      emails: ['webex@example.test'],
      displayName: 'Web Ex',
      avatar: 'https://avatar-prod.webexcontent.test/w.jpg',
    },
    user: {
      id: 'Y2lzY29zcGFyazovL3VzL1BFT1BMRS9m',
      name: 'Web Ex',
      email: 'webex@example.test',
      image: 'https://avatar-prod.webexcontent.test/w.jpg',
    },
  },
  wechat: {
    token: {
      token_type: undefined,
      openid: 'OPENID-1',
      unionid: 'o6_bmasdasdsad6_2sgVt7hMZOPfL',
      scope: 'snsapi_login',
    },
    profile: {
      openid: 'OPENID-1',
      nickname: 'Wei Xin',
      sex: 1,
      headimgurl: 'https://thirdwx.qlogo.test/wx.png',
      unionid: 'o6_bmasdasdsad6_2sgVt7hMZOPfL',
    },
    user: {
      id: 'o6_bmasdasdsad6_2sgVt7hMZOPfL',
      name: 'Wei Xin',
      email: null,
      image: 'https://thirdwx.qlogo.test/wx.png',
    },
  },
  wikimedia: {
    profile: {
      sub: 12345,
      username: 'WikiUser',
      editcount: 100,
      confirmed_email: true,
      email: 'wiki@example.test',
      groups: ['*', 'user'],
    },
    user: { id: '12345', name: 'WikiUser', email: 'wiki@example.test', image: null },
  },
  wordpress: {
    profile: {
      ID: 54321,
      username: 'wpuser',
      display_name: 'Word Press',
      email: 'wp@example.test',
      avatar_URL: 'https://0.gravatar.test/wp.png',
    },
    user: { id: '54321', name: 'Word Press', email: 'wp@example.test', image: 'https://0.gravatar.test/wp.png' },
  },
  workos: {
    options: { connection: 'conn_01E4ZCR3C56J083X43JQXF3JK5' },
    profile: {
      id: 'prof_01DMC79VCBZ0NY2099737PSVF1',
      email: 'todd@foo-corp.test',
      first_name: 'Todd',
      last_name: 'Rundgren',
      connection_id: 'conn_01E4ZCR3C56J083X43JQXF3JK5',
      connection_type: 'OktaSAML',
      organization_id: 'org_01EHWNCE74X7JSDV0X3SZ3KJNY',
      idp_id: '00u1a0ufowBJlzPlk357',
      raw_attributes: { picture: 'https://foo-corp.test/todd.png' },
    },
    user: {
      id: 'prof_01DMC79VCBZ0NY2099737PSVF1',
      name: 'Todd Rundgren',
      email: 'todd@foo-corp.test',
      image: 'https://foo-corp.test/todd.png',
    },
  },
  yandex: {
    profile: {
      id: '1000034426',
      login: 'ivan',
      client_id: '4760187d81bc4b7799476b42b5103713',
      display_name: 'Ivan',
      real_name: 'Ivan Ivanov',
      first_name: 'Ivan',
      last_name: 'Ivanov',
      default_email: 'ivan@yandex.test',
      emails: ['ivan@yandex.test'],
      is_avatar_empty: false,
      default_avatar_id: '131652443',
    },
    user: {
      id: '1000034426',
      name: 'Ivan',
      email: 'ivan@yandex.test',
      image: 'https://avatars.yandex.net/get-yapic/131652443/islands-200',
    },
  },
  zitadel: {
    options: { issuer: 'https://example-abc.zitadel.test' },
    profile: {
      sub: '165560330240836124',
      name: 'Zed Itadel',
      email: 'zed@example.test',
      'urn:zitadel:iam:org:id': '1655',
    },
    user: { id: '165560330240836124', name: 'Zed Itadel', email: 'zed@example.test', image: null },
  },
  zoho: {
    profile: {
      ZUID: 59781723,
      First_Name: 'Zo',
      Last_Name: 'Ho',
      Display_Name: 'zoho.user',
      Email: 'zoho@example.test',
    },
    user: { id: '59781723', name: 'Zo Ho', email: 'zoho@example.test', image: null },
  },
  zoom: {
    profile: {
      id: 'KDcuGIm1QgePTO8WbOqwIQ',
      first_name: 'Jill',
      last_name: 'Chill',
      display_name: 'Jill Chill',
      email: 'jchill@example.test',
      pic_url: 'https://lh4.googleusercontent.test/jill.jpg',
      type: 1,
    },
    user: {
      id: 'KDcuGIm1QgePTO8WbOqwIQ',
      name: 'Jill Chill',
      email: 'jchill@example.test',
      image: 'https://lh4.googleusercontent.test/jill.jpg',
    },
  },
}
